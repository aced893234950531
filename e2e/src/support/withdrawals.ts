import { expect } from 'vitest';
import { latestOtp } from './helpers.js';
import type { ApiBorrower } from './borrowers.js';
import type { RunningSystem } from './system.js';

/** A pending withdrawal the borrower requested through the API: a code by SMS (dev outbox), then the request, paid to the profile's account. */
export async function requestWithdrawal(system: RunningSystem, borrower: ApiBorrower, amount: number): Promise<{ id: string; withdrawalNumber: string }> {
  // The outbox may still hold an earlier code: only one texted after this request counts.
  const askedAt = new Date().toISOString();
  const challenge = await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount } });
  expect(challenge.status, JSON.stringify(challenge.body)).toBe(202);
  const otp = await latestOtp(system, borrower.token, askedAt);
  const request = await system.request('POST', '/api/withdrawals', { token: borrower.token, body: { amount, otp } });
  expect(request.status, JSON.stringify(request.body)).toBe(201);
  return { id: request.body.id, withdrawalNumber: request.body.withdrawalNumber };
}

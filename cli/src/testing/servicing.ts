import { signPayload } from '@honeylend/command-api';
import type { TestSystem } from './testSystem.js';
import { TEST_WEBHOOK_SECRET } from './testSystem.js';
import { approveAndAccept, borrowerWithPendingLoan } from './admins.js';
import type { Borrower } from './borrowers.js';

/*
 * Servicing fixtures over the real API: an active loan, the dev business date moved forward, and
 * the three ways money comes back. Built for reuse (tests, and demo data that lives loans through
 * months in seconds).
 */

export interface ActiveLoan {
  borrower: Borrower;
  loanId: string;
  loanNumber: string;
  /** The schedule's due dates, in order (YYYY-MM-DD, Manila). */
  dueDates: string[];
}

async function ok(res: { status: number; body: any }, expected: number, what: string) {
  if (res.status !== expected) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A verified borrower whose loan an admin approved and who accepted its Disclosure Statement: disbursed to the wallet, active, its schedule fixed. */
export async function activeLoan(system: TestSystem, adminToken: string, options: { fullName?: string; amount?: number } = {}): Promise<ActiveLoan> {
  const { borrower, loan } = await borrowerWithPendingLoan(system, options.fullName ?? 'Maria Santos', options.amount ?? 120_000);
  const approved = await approveAndAccept(system, adminToken, borrower.token, loan.id);
  return { borrower, loanId: loan.id, loanNumber: loan.loanNumber, dueDates: approved.schedule.map((row: { dueDate: string }) => row.dueDate) };
}

/** Moves the business date forward (outside production); the day close runs through it before this answers. */
export async function moveBusinessDate(system: TestSystem, adminToken: string, date: string): Promise<any> {
  return ok(await system.request('POST', '/api/dev/business-date', { token: adminToken, body: { date } }), 200, `business date ${date}`);
}

export async function payFromWallet(system: TestSystem, loan: ActiveLoan, amount: number, idempotencyKey?: string): Promise<any> {
  return ok(
    await system.request('POST', `/api/loans/${loan.loanId}/repayments`, { token: loan.borrower.token, body: { amount }, headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {} }),
    201,
    'wallet repayment',
  );
}

export async function recordRepayment(system: TestSystem, adminToken: string, loan: ActiveLoan, body: { amount: number; channel: string; reference: string; valueDate: string }): Promise<any> {
  return ok(await system.request('POST', `/api/admin/loans/${loan.loanId}/repayments`, { token: adminToken, body }), 201, 'recorded repayment');
}

/** The payment provider's webhook, signed as the provider signs it (or with `signature` to forge one). */
export function providerPayment(system: TestSystem, body: { reference: string; loanNumber: string; amount: number; paidAt: string; channel: string }, signature?: string) {
  const raw = JSON.stringify(body);
  return system.request('POST', '/api/payments/webhook', { body: raw, headers: { 'X-Signature': signature ?? signPayload(raw, TEST_WEBHOOK_SECRET) } });
}

export async function loanOf(system: TestSystem, loan: ActiveLoan): Promise<any> {
  return ok(await system.request('GET', `/api/loans/${loan.loanId}`, { token: loan.borrower.token }), 200, 'loan');
}

/**
 * Lives a loan through its instalments with the dev business date: for each instalment `from`
 * to `to`, moves to its due date and pays it from the wallet (the borrower needs the balance).
 */
export async function payInstalmentsOnTime(system: TestSystem, adminToken: string, loan: ActiveLoan, from: number, to: number): Promise<void> {
  for (let instalment = from; instalment <= to; instalment++) {
    await moveBusinessDate(system, adminToken, loan.dueDates[instalment - 1]);
    const current = await loanOf(system, loan);
    const row = current.schedule[instalment - 1];
    await payFromWallet(system, loan, Math.round((row.amount + row.penalty - row.paid) * 100) / 100);
  }
}

import { randomUUID } from 'node:crypto';
import { PRIVACY_NOTICE_VERSION, streams } from '@honeylend/contracts';
import { readSmsOutbox } from '@honeylend/contracts/server';
import { handleCommand, memberDecider } from '@honeylend/command-api';
import type { TestSystem } from './testSystem.js';
import { uniquePhone } from './testSystem.js';
import { pngImage } from './images.js';

export interface Borrower {
  id: string;
  phone: string;
  token: string;
}

/** Registers through the API, accepting the privacy notice the form shows (RA 10173): a loan application needs that consent. */
export async function registerBorrower(system: TestSystem, fullName = 'Maria Santos'): Promise<Borrower> {
  const phone = uniquePhone();
  const res = await system.request('POST', '/api/auth/register', { body: { phone, password: 'Sampaguita#2026', fullName, privacyNoticeVersion: PRIVACY_NOTICE_VERSION } });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.user.id, phone: res.body.user.phone, token: res.body.token };
}

/** Confirms the borrower's phone with the code texted to it (the development outbox stands in for the phone). */
export async function confirmPhone(system: TestSystem, borrower: Borrower): Promise<void> {
  const sent = await system.request('POST', '/api/user/phone-verification', { token: borrower.token });
  if (sent.status !== 202) throw new Error(`phone verification not sent: ${sent.status} ${JSON.stringify(sent.body)}`);
  const code = await textedCode(system, borrower, /phone confirmation code is (\d{6})\b/);
  const res = await system.request('POST', '/api/user/phone-verification/confirm', { token: borrower.token, body: { code } });
  if (res.status !== 200 || !res.body.phoneVerified) throw new Error(`phone confirmation failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** The newest code of this kind texted to the borrower's phone. */
export async function textedCode(system: TestSystem, borrower: Borrower, pattern: RegExp, deadlineMs = 10_000): Promise<string> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const res = await system.request('GET', '/api/dev/outbox', { token: borrower.token });
    const texts: { body: string }[] = Array.isArray(res.body) ? res.body : [];
    for (const text of texts) {
      const match = pattern.exec(text.body);
      if (match) return match[1];
    }
    if (Date.now() > deadline) throw new Error(`no code matching ${pattern} reached ${borrower.phone}: ${JSON.stringify(res.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Completes personal information, uploads the three identity documents and confirms the phone
 * number, as the borrower would before a first loan application.
 */
export async function verifyBorrower(system: TestSystem, borrower: Borrower, options: { confirmPhone?: boolean } = {}): Promise<void> {
  const urls: Record<string, string> = {};
  for (const field of ['idFrontUrl', 'idBackUrl', 'selfieUrl']) {
    const res = await system.upload('/api/upload', { bytes: pngImage(), name: `${field}.png`, type: 'image/png' }, borrower.token);
    if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
    urls[field] = res.body.url;
  }
  const res = await system.request('PUT', '/api/user/profile', {
    token: borrower.token,
    body: {
      address: '123 Rizal Avenue, Manila',
      countryOfWork: 'Philippines',
      monthlySalary: 30000,
      referenceName: 'Jose Santos',
      referencePhone: '09181234567',
      bankName: 'BPI',
      bankAccountNumber: '1234567890',
      ...urls,
    },
  });
  if (res.status !== 200 || !res.body.verified) throw new Error(`verification failed: ${res.status} ${JSON.stringify(res.body)}`);
  if (options.confirmPhone !== false) await confirmPhone(system, borrower);
}

/**
 * Puts the bank account withdrawals pay to on the borrower's profile (their first, so no code is
 * needed; the same account again changes nothing).
 */
export async function addBankAccount(system: TestSystem, borrower: Borrower, bankName = 'BPI', bankAccountNumber = '1234567890'): Promise<void> {
  const res = await system.request('PUT', '/api/user/profile', { token: borrower.token, body: { bankName, bankAccountNumber } });
  if (res.status !== 200) throw new Error(`bank account not saved: ${res.status} ${JSON.stringify(res.body)}`);
}

/**
 * Puts money in the wallet the way a loan approval does: a LoanDisbursed on the member's stream,
 * through the same decider (used until the admin approval route drives it).
 */
export async function disburse(system: TestSystem, borrower: Borrower, amountCentavos: number): Promise<number> {
  const result = await handleCommand(
    system.store,
    streams.member(borrower.id),
    memberDecider,
    { type: 'DisburseLoan', memberId: borrower.id, loanId: randomUUID(), amountCentavos, now: new Date().toISOString() },
    { actorId: 'test', correlationId: randomUUID() },
  );
  await system.api.deps.progress.waitFor(result.position!);
  return result.position!;
}

/** The newest OTP code texted to this phone (the development outbox stands in for the phone). */
export async function latestOtpFor(system: TestSystem, borrower: Borrower, deadlineMs = 5_000): Promise<string> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const res = await system.request('GET', '/api/dev/outbox', { token: borrower.token });
    const match = /withdrawal code is (\d{6})\b/.exec(res.body?.[0]?.body ?? '');
    if (match) return match[1];
    if (Date.now() > deadline) throw new Error(`no OTP reached ${borrower.phone}: ${JSON.stringify(res.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The texts sent to a number (newest first), read from the development outbox itself: the phone
 * still receives them when every token of its member has been revoked.
 */
export async function textsTo(system: TestSystem, phone: string): Promise<string[]> {
  return (await readSmsOutbox(system.redis, system.api.deps.jobs.keys, { to: phone, limit: 200 })).map((text) => text.body);
}

/** The newest text to `phone` that matches `pattern`, waited for: its first group. */
export async function textTo(system: TestSystem, phone: string, pattern: RegExp, deadlineMs = 10_000): Promise<string> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    for (const body of await textsTo(system, phone)) {
      const match = pattern.exec(body);
      if (match) return match[1] ?? match[0];
    }
    if (Date.now() > deadline) throw new Error(`no text matching ${pattern} reached ${phone}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The staff Reset action and what the member does with it (design §7): staff text the member a
 * reset code, the member reads it on their phone and chooses `newPassword`, then signs in with it.
 * Answers the member with their new session.
 */
export async function resetByStaff(system: TestSystem, staffToken: string, borrower: Borrower, newPassword: string): Promise<Borrower> {
  const started = await system.request('POST', `/api/admin/users/${borrower.id}/password-reset`, { token: staffToken });
  if (started.status !== 202) throw new Error(`staff reset refused: ${started.status} ${JSON.stringify(started.body)}`);
  const code = await textTo(system, borrower.phone, /password reset code is (\d{6})\b/);
  const confirmed = await system.request('POST', '/api/auth/password-reset/confirm', { body: { phone: borrower.phone, code, newPassword } });
  if (confirmed.status !== 200 && confirmed.status !== 202) throw new Error(`reset with the texted code failed: ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
  const signedIn = await system.request('POST', '/api/auth/login', { body: { phone: borrower.phone, password: newPassword } });
  if (signedIn.status !== 200) throw new Error(`sign-in with the new password failed: ${signedIn.status} ${JSON.stringify(signedIn.body)}`);
  return { ...borrower, token: signedIn.body.token };
}

import { expect } from 'vitest';
import { PRIVACY_NOTICE_VERSION } from '@honeylend/contracts';
import { uniquePhone } from './helpers.js';
import { pngImage } from './images.js';
import type { RunningSystem } from './system.js';

export interface ApiBorrower {
  id: string;
  phone: string;
  token: string;
}

/** What a verified borrower fills in on the profile page (their documents are uploaded apart). */
interface BorrowerProfile {
  address: string;
  monthlySalary: number;
  referenceName: string;
  bankName: string;
  bankAccountNumber: string;
}

const VIGAN_PROFILE: BorrowerProfile = { address: '45 Mabini Street, Vigan City, Ilocos Sur', monthlySalary: 42000, referenceName: 'Diego Silang', bankName: 'UnionBank', bankAccountNumber: '109876543210' };
const MANILA_PROFILE: BorrowerProfile = { address: '12 Kalaw Avenue, Ermita, Manila', monthlySalary: 38000, referenceName: 'Teodora Alonso', bankName: 'BDO', bankAccountNumber: '001234567890' };

/** The three identity documents, each a plain PNG of its own colour. */
const DOCUMENT_COLOURS = [
  ['idFrontUrl', [242, 165, 22]],
  ['idBackUrl', [122, 75, 0]],
  ['selfieUrl', [29, 95, 214]],
] as const;

/** A borrower registered and verified (profile, the three documents and the phone) through the API, named `fullName`. */
export async function verifiedBorrower(system: RunningSystem, fullName: string, details: BorrowerProfile = MANILA_PROFILE): Promise<ApiBorrower> {
  const phone = uniquePhone();
  const registered = await system.request('POST', '/api/auth/register', { body: { phone, password: 'Sampaguita#2026', fullName, privacyNoticeVersion: PRIVACY_NOTICE_VERSION } });
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  const borrower: ApiBorrower = { id: registered.body.user.id, phone, token: registered.body.token };

  const urls: Record<string, string> = {};
  for (const [field, colour] of DOCUMENT_COLOURS) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(pngImage([...colour]))], { type: 'image/png' }), `${field}.png`);
    const response = await fetch(`${system.baseUrl}/api/upload`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${borrower.token}` } });
    expect(response.status).toBe(201);
    urls[field] = ((await response.json()) as { url: string }).url;
  }
  const profile = await system.request('PUT', '/api/user/profile', {
    token: borrower.token,
    body: { ...details, countryOfWork: 'Philippines', referencePhone: '09181234567', ...urls },
  });
  expect(profile.body?.verified, JSON.stringify(profile.body)).toBe(true);
  await confirmPhone(system, borrower);
  return borrower;
}

/** Confirms the borrower's phone with the code texted to it (read from the development outbox), as a first loan needs. */
export async function confirmPhone(system: RunningSystem, borrower: ApiBorrower): Promise<void> {
  const sent = await system.request('POST', '/api/user/phone-verification', { token: borrower.token });
  expect(sent.status, JSON.stringify(sent.body)).toBe(202);
  let code: string | undefined;
  const deadline = Date.now() + 15_000;
  while (!code) {
    const outbox = await system.request('GET', '/api/dev/outbox', { token: borrower.token });
    const texts: { body: string }[] = Array.isArray(outbox.body) ? outbox.body : [];
    code = texts.map((text) => /phone confirmation code is (\d{6})\b/.exec(text.body)?.[1]).find(Boolean);
    if (!code && Date.now() > deadline) throw new Error(`no phone confirmation code reached ${borrower.phone}`);
    if (!code) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const confirmed = await system.request('POST', '/api/user/phone-verification/confirm', { token: borrower.token, body: { code } });
  expect(confirmed.body?.phoneVerified, JSON.stringify(confirmed.body)).toBe(true);
}

/**
 * A borrower registered, verified and holding an approved loan whose Disclosure Statement they
 * accepted (RA 3765), so the money is in the wallet — all through the API (paid out to UnionBank 109876543210).
 */
export async function approvedBorrower(system: RunningSystem, amount = 250_000): Promise<ApiBorrower & { loanId: string }> {
  const borrower = await verifiedBorrower(system, 'Gabriela Silang', VIGAN_PROFILE);
  const loan = await system.request('POST', '/api/loans', { token: borrower.token, body: { amount, purpose: 'Tricycle for a transport business', termMonths: 24 } });
  expect(loan.status, JSON.stringify(loan.body)).toBe(201);
  const approval = await system.request('PUT', `/api/admin/loans/${loan.body.id}`, { token: await system.adminToken(), body: { status: 'approved', notify: true } });
  expect(approval.status, JSON.stringify(approval.body)).toBe(200);
  await acceptDisclosure(system, borrower.token, loan.body.id);
  return { ...borrower, loanId: loan.body.id };
}

/** The borrower accepts their approved loan's Disclosure Statement through the API; the money moves. */
export async function acceptDisclosure(system: RunningSystem, token: string, loanId: string): Promise<void> {
  const disclosure = await system.request('GET', `/api/loans/${loanId}/disclosure`, { token });
  expect(disclosure.status, JSON.stringify(disclosure.body)).toBe(200);
  const accepted = await system.request('POST', `/api/loans/${loanId}/acceptance`, { token, body: { hash: disclosure.body.hash } });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
}

/** A loan application left pending (the admin console decides it). */
export async function pendingLoan(system: RunningSystem, borrower: ApiBorrower, amount = 120_000): Promise<{ id: string; loanNumber: string }> {
  const loan = await system.request('POST', '/api/loans', { token: borrower.token, body: { amount, purpose: 'Stock for a sari-sari store', termMonths: 12 } });
  expect(loan.status, JSON.stringify(loan.body)).toBe(201);
  return { id: loan.body.id, loanNumber: loan.body.loanNumber };
}

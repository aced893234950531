import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModelKeys, streams } from '@honeylend/contracts';
import { lapseUnacceptedApprovals } from '@honeylend/command-api';
import { startTestSystem, type TestSystem } from '../testing/testSystem.js';
import { borrowerWithPendingLoan, createAdmin, superadminToken } from '../testing/admins.js';

/*
 * RA 3765 (issue 17 item 3): after approval the borrower reads the final Disclosure Statement and
 * accepts it; the money moves only then, and an approval not accepted within 7 days lapses.
 */
const DAY_MS = 86_400_000;
let clockOffsetMs = 0;
let system: TestSystem;
let admin: string;

const COMPANY = {
  companyName: 'Pulot Lending Corporation',
  secRegistrationNumber: 'CS202012345',
  certificateOfAuthorityNumber: '3456',
  dateRegistered: '2020-03-02',
  status: 'Registered',
  address: '8F Net Park, 5th Avenue, Bonifacio Global City, Taguig',
  contact: 'help@pulot.ph',
};

beforeAll(async () => {
  system = await startTestSystem({ now: () => new Date(Date.now() + clockOffsetMs) });
  admin = await superadminToken(system);
}, 120_000);
afterAll(() => system?.stop());

const approve = (loanId: string) => system.request('PUT', `/api/admin/loans/${loanId}`, { token: admin, body: { status: 'approved', notify: true } });
const eventsOf = async (stream: string, type: string) => (await system.store.readStream(stream)).filter((event) => event.type === type);
const balanceOf = async (token: string) => (await system.request('GET', '/api/user/profile', { token })).body.balance as number;

function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'honeylend-pdf-'));
  writeFileSync(join(dir, 'statement.pdf'), pdf);
  return execFileSync('pdftotext', ['-layout', join(dir, 'statement.pdf'), '-'], { encoding: 'utf8' });
}

describe('the disclosure statement and its acceptance', () => {
  it('shows the final statement after approval, holds the money until the borrower accepts it, and records the hash, time and address', async () => {
    expect((await system.request('PUT', '/api/admin/settings/company', { token: admin, body: COMPANY })).status).toBe(200);
    const { borrower, loan } = await borrowerWithPendingLoan(system, 'Imelda Bautista', 150_000);
    // Before approval the terms are not final.
    const early = await system.request('GET', `/api/loans/${loan.id}/disclosure`, { token: borrower.token });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('LOAN_NOT_APPROVED');

    const approval = await approve(loan.id);
    expect(approval.body).toMatchObject({ status: 'approved', acceptance: { awaiting: true } });
    expect(await balanceOf(borrower.token)).toBe(0);
    expect(await eventsOf(streams.member(borrower.id), 'LoanDisbursed')).toHaveLength(0);
    const notices = await system.request('GET', '/api/notifications', { token: borrower.token });
    expect(notices.body[0].message).toContain('accept its Disclosure Statement');

    const disclosure = await system.request('GET', `/api/loans/${loan.id}/disclosure`, { token: borrower.token });
    expect(disclosure.status).toBe(200);
    const { statement, hash } = disclosure.body as { statement: string; hash: string };
    expect(hash).toBe(createHash('sha256').update(statement, 'utf8').digest('hex'));
    // ₱150,000 for 12 months at 2.5 % flat: ₱45,000 interest, ₱195,000 in all, twelve ₱16,250 instalments.
    for (const figure of [
      'Amount financed (paid into your Honeylend wallet): PHP 150,000.00',
      'Finance charge (interest for the whole term): PHP 45,000.00',
      'Total amount to be paid: PHP 195,000.00',
      'Effective interest rate:',
      'PHP 16,250.00',
      'Late payment charge: 2.00% a month',
      'Prepayment: you may pay any amount early',
      'Lender: Pulot Lending Corporation',
      'SEC Registration No.: CS202012345',
      'Certificate of Authority No.: 3456',
      'Borrower: Imelda Bautista',
      loan.loanNumber,
    ]) {
      expect(statement).toContain(figure);
    }
    expect(statement.split('\n').filter((line) => /^\d+\s+\d{4}-\d{2}-\d{2}\s+PHP/.test(line))).toHaveLength(12);

    // The PDF carries the same figures and the hash; pdftotext reads them back.
    const pdfResponse = await fetch(`${system.baseUrl}/api/loans/${loan.id}/disclosure.pdf`, { headers: { Authorization: `Bearer ${borrower.token}` } });
    expect(pdfResponse.status).toBe(200);
    expect(pdfResponse.headers.get('content-type')).toBe('application/pdf');
    expect(pdfResponse.headers.get('content-disposition')).toContain(`disclosure-statement-${loan.loanNumber}.pdf`);
    const text = pdfText(Buffer.from(await pdfResponse.arrayBuffer()));
    for (const figure of ['PHP 150,000.00', 'PHP 45,000.00', 'PHP 195,000.00', 'PHP 16,250.00', 'CS202012345', hash]) expect(text).toContain(figure);

    // A stale or forged hash is refused and moves nothing.
    const wrong = await system.request('POST', `/api/loans/${loan.id}/acceptance`, { token: borrower.token, body: { hash: 'f'.repeat(64) } });
    expect(wrong.status).toBe(409);
    expect(wrong.body.code).toBe('STATEMENT_CHANGED');
    const bad = await system.request('POST', `/api/loans/${loan.id}/acceptance`, { token: borrower.token, body: { hash: 'nope' } });
    expect(bad.status).toBe(400);
    expect(await balanceOf(borrower.token)).toBe(0);

    const accepted = await system.request('POST', `/api/loans/${loan.id}/acceptance`, { token: borrower.token, body: { hash }, headers: { 'X-Forwarded-For': '198.51.100.9' } });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'active', acceptance: { awaiting: false, acceptedAt: expect.any(String) } });
    expect(await balanceOf(borrower.token)).toBe(150_000);
    const [recorded] = await eventsOf(streams.loan(loan.id), 'LoanTermsAccepted');
    // The address is the caller's as the API sees it (no trusted proxy here: the socket's).
    expect(recorded.data).toMatchObject({ statementHash: hash, ipAddress: '127.0.0.1', acceptedAt: accepted.body.acceptance.acceptedAt });
    // Accepting again changes nothing; the PDF now says when it was accepted.
    expect((await system.request('POST', `/api/loans/${loan.id}/acceptance`, { token: borrower.token, body: { hash } })).status).toBe(200);
    expect(await eventsOf(streams.member(borrower.id), 'LoanDisbursed')).toHaveLength(1);
  });

  it("never shows or accepts another member's statement", async () => {
    const { loan } = await borrowerWithPendingLoan(system, 'Owner Borrower');
    const { borrower: other } = await borrowerWithPendingLoan(system, 'Other Borrower');
    await approve(loan.id);
    expect((await system.request('GET', `/api/loans/${loan.id}/disclosure`, { token: other.token })).status).toBe(404);
    expect((await system.request('GET', `/api/loans/${loan.id}/disclosure.pdf`, { token: other.token })).status).toBe(404);
    expect((await system.request('POST', `/api/loans/${loan.id}/acceptance`, { token: other.token, body: { hash: 'a'.repeat(64) } })).status).toBe(404);
    expect(await eventsOf(streams.loan(loan.id), 'LoanTermsAccepted')).toHaveLength(0);
  });

  it('lapses an approval not accepted within 7 days: no money moves and the borrower may apply again', async () => {
    const late = await borrowerWithPendingLoan(system, 'Late Acceptor');
    const silent = await borrowerWithPendingLoan(system, 'Silent Borrower');
    await approve(late.loan.id);
    await approve(silent.loan.id);
    const { hash } = (await system.request('GET', `/api/loans/${late.loan.id}/disclosure`, { token: late.borrower.token })).body;
    clockOffsetMs = 7 * DAY_MS + 60_000;
    try {
      // The borrower who comes back too late is told so, and the lapse is on the log.
      const refused = await system.request('POST', `/api/loans/${late.loan.id}/acceptance`, { token: late.borrower.token, body: { hash } });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('APPROVAL_LAPSED');
      expect(await eventsOf(streams.loan(late.loan.id), 'LoanApprovalLapsed')).toHaveLength(1);
      // The hourly job lapses the one who never came back.
      const lapsed = await lapseUnacceptedApprovals(
        { store: system.store, redis: system.redis, keys: readModelKeys(system.keyPrefix), notificationQueue: system.api.deps.jobs.notificationQueue },
        new Date(Date.now() + clockOffsetMs),
      );
      // The silent borrower's, and the approval the test before left unaccepted; the late one lapsed already.
      expect(lapsed).toBe(2);
      await system.api.deps.progress.waitFor(await system.store.headPosition());
      for (const { borrower, loan } of [late, silent]) {
        const seen = await system.request('GET', `/api/loans/${loan.id}`, { token: borrower.token });
        expect(seen.body).toMatchObject({ status: 'lapsed', acceptance: { awaiting: false, acceptedAt: null } });
        // The approval's notice said "accept within 7 days": the borrower is told it lapsed, whichever way it did.
        const inbox = (await system.request('GET', '/api/notifications', { token: borrower.token })).body as { title: string; message: string }[];
        expect(inbox.filter((notice) => notice.title === `Loan ${loan.loanNumber}: approval lapsed`)).toHaveLength(1);
        expect(await balanceOf(borrower.token)).toBe(0);
        expect(await eventsOf(streams.member(borrower.id), 'LoanDisbursed')).toHaveLength(0);
        const again = await system.request('POST', '/api/loans', { token: borrower.token, body: { amount: 80_000, purpose: 'Second try', termMonths: 6 } });
        expect(again.status).toBe(201);
      }
    } finally {
      clockOffsetMs = 0;
    }
  });
});

describe('the company details', () => {
  it('are {} and named missing by /api/health until the main admin sets them; a plain admin may not', async () => {
    // This system set them in the first test; a fresh one shows the empty state.
    const fresh = await startTestSystem();
    try {
      expect((await fresh.request('GET', '/api/company')).body).toEqual({});
      const health = await fresh.request('GET', '/api/health');
      expect(health.body).toMatchObject({ status: 'ok', operatorDetails: 'missing' });
      expect(health.body.warnings[0]).toContain('operator details are missing');
    } finally {
      await fresh.stop();
    }
    expect((await system.request('GET', '/api/company')).body).toEqual(COMPANY);
    expect((await system.request('GET', '/api/health')).body).toEqual({ status: 'ok', operatorDetails: 'set' });
    const invalid = await system.request('PUT', '/api/admin/settings/company', { token: admin, body: { ...COMPANY, dateRegistered: '02/03/2020', companyName: '' } });
    expect(invalid.status).toBe(400);
    expect(Object.keys(invalid.body.details.fields).sort()).toEqual(['companyName', 'dateRegistered']);
    const officer = await createAdmin(system, admin);
    const refused = await system.request('PUT', '/api/admin/settings/company', { token: officer.token, body: { ...COMPANY, companyName: 'Officer Corp' } });
    expect(refused.status).toBe(403);
    expect((await system.request('GET', '/api/company')).body.companyName).toBe(COMPANY.companyName);
  });
});

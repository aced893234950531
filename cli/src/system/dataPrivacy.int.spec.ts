import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIVACY_NOTICE_VERSION, streams } from '@honeylend/contracts';
import { startTestSystem, uniquePhone, type TestSystem } from '../testing/testSystem.js';
import { disburse, registerBorrower, verifyBorrower, type Borrower } from '../testing/borrowers.js';
import { borrowerWithPendingLoan, createAdmin, pendingWithdrawal, superadminToken, type TestAdmin } from '../testing/admins.js';

/**
 * Data privacy (RA 10173, issue 17 item 4) over HTTP: consent to the notice in force before a loan
 * application, a changed notice asking again, "Download my data", and closing the account.
 */
let system: TestSystem;
let officer: TestAdmin;
let auditor: TestAdmin;
const PASSWORD = 'Sampaguita#2026';

beforeAll(async () => {
  system = await startTestSystem();
  const main = await superadminToken(system);
  officer = await createAdmin(system, main);
  auditor = await createAdmin(system, main, 'auditor');
});
afterAll(() => system?.stop());

type Request = (method: string, path: string, options?: { body?: unknown; token?: string }) => Promise<{ status: number; body: any }>;
const apply = (token: string, request: Request = (method, path, options) => system.request(method, path, options)) =>
  request('POST', '/api/loans', { token, body: { amount: 80_000, purpose: 'Sari-sari store stock', termMonths: 12 } });

/** A borrower registered without accepting the notice (as an old account, or one an admin created). */
async function unconsentedBorrower(fullName: string): Promise<Borrower> {
  const phone = uniquePhone();
  const res = await system.request('POST', '/api/auth/register', { body: { phone, password: PASSWORD, fullName } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.user.consentRequired).toBe(true);
  return { id: res.body.user.id, phone: res.body.user.phone, token: res.body.token };
}

describe('the privacy notice and consent (RA 10173 sec. 12)', () => {
  it('publishes the notice in force: version and a specific text', async () => {
    const res = await system.request('GET', '/api/privacy-notice');
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(PRIVACY_NOTICE_VERSION);
    expect(res.body.text).toContain('Republic Act No. 10173');
    expect(res.body.text).toContain('5 years');
    // No company details set in this system: no invented officer.
    expect(res.body.dataProtectionOfficer).toBeNull();
  });

  it('refuses a loan application without consent (403 CONSENT_REQUIRED), then accepts it once the member consents', async () => {
    const borrower = await unconsentedBorrower('Gabriela Silang');
    await verifyBorrower(system, borrower);
    const refused = await apply(borrower.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'CONSENT_REQUIRED' });
    expect((await system.request('GET', '/api/user/profile', { token: borrower.token })).body.consentRequired).toBe(true);

    const stale = await system.request('POST', '/api/user/consent', { token: borrower.token, body: { noticeVersion: '2001-01-01' } });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('NOTICE_CHANGED');

    const consent = await system.request('POST', '/api/user/consent', { token: borrower.token, body: { noticeVersion: PRIVACY_NOTICE_VERSION } });
    expect(consent.status).toBe(200);
    expect(consent.body).toMatchObject({ consentRequired: false, privacyNoticeVersion: PRIVACY_NOTICE_VERSION });
    const events = await system.store.readStream(streams.member(borrower.id));
    expect(events.filter((event) => event.type === 'ConsentGiven').map((event) => event.data.noticeVersion)).toEqual([PRIVACY_NOTICE_VERSION]);

    const accepted = await apply(borrower.token);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
  });

  it('records consent given at registration, and refuses a registration that accepted an outdated notice', async () => {
    const borrower = await registerBorrower(system, 'Melchora Aquino');
    const profile = await system.request('GET', '/api/user/profile', { token: borrower.token });
    expect(profile.body).toMatchObject({ consentRequired: false, privacyNoticeVersion: PRIVACY_NOTICE_VERSION });
    const outdated = await system.request('POST', '/api/auth/register', { body: { phone: uniquePhone(), password: PASSWORD, fullName: 'Late Reader', privacyNoticeVersion: '2001-01-01' } });
    expect(outdated.status).toBe(409);
    expect(outdated.body.code).toBe('NOTICE_CHANGED');
  });

  it('asks again when the notice changes: consentRequired at the next sign-in, loans refused until the new notice is accepted', async () => {
    const borrower = await registerBorrower(system, 'Apolinario Mabini');
    await verifyBorrower(system, borrower);
    // The same system with a new notice in force (as after a deploy that changed the text).
    const changed = await system.startApiNode({ privacyNoticeVersion: '2099-01-01' });
    const baseUrl = `http://127.0.0.1:${changed.port}`;
    const request: Request = async (method, path, { body, token } = {}) => {
      const res = await fetch(baseUrl + path, {
        method,
        headers: { ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const answer: any = await res.json();
      return { status: res.status, body: answer, headers: res.headers };
    };
    expect((await request('GET', '/api/privacy-notice')).body.version).toBe('2099-01-01');
    const signIn = await request('POST', '/api/auth/login', { body: { phone: borrower.phone, password: PASSWORD } });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user).toMatchObject({ consentRequired: true, privacyNoticeVersion: PRIVACY_NOTICE_VERSION });
    const token = signIn.body.token as string;
    const refused = await apply(token, request);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('CONSENT_REQUIRED');
    const consent = await request('POST', '/api/user/consent', { token, body: { noticeVersion: '2099-01-01' } });
    expect(consent.status).toBe(200);
    expect(consent.body.consentRequired).toBe(false);
    expect((await apply(token, request)).status).toBe(201);
  });
});

describe('Download my data (RA 10173 sec. 16(c), 18)', () => {
  it('answers everything held about the member as one JSON attachment, and nothing of another member', async () => {
    const { borrower, loan } = await borrowerWithPendingLoan(system, 'Juan Luna');
    const other = await borrowerWithPendingLoan(system, 'Antonio Luna');
    const sent = await system.request('POST', '/api/admin/notifications', {
      token: officer.token,
      body: { userId: borrower.id, title: 'Documents received', message: 'We received your documents and are reviewing them.', type: 'loan_update' },
    });
    expect(sent.status).toBe(201);
    await system.request('POST', '/api/admin/notifications', {
      token: officer.token,
      body: { userId: other.borrower.id, title: 'For the other member', message: 'A message only Antonio should see.', type: 'general' },
    });

    const res = await fetch(`${system.baseUrl}/api/user/export`, { headers: { Authorization: `Bearer ${borrower.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="honeylend-my-data-\d{4}-\d{2}-\d{2}\.json"$/);
    const text = await res.text();
    const data = JSON.parse(text);
    expect(data.profile).toMatchObject({ id: borrower.id, fullName: 'Juan Luna', address: '123 Rizal Avenue, Manila', bankAccountNumber: '1234567890' });
    expect(data.documents.map((document: { usedAs: string | null }) => document.usedAs).sort()).toEqual(['idBack', 'idFront', 'selfie']);
    expect(data.loans.map((row: { id: string }) => row.id)).toEqual([loan.id]);
    expect(data.notifications.map((row: { title: string }) => row.title)).toEqual(['Documents received']);
    expect(data.withdrawals).toEqual([]);
    const types = data.events.map((event: { type: string }) => event.type);
    for (const type of ['MemberRegistered', 'ConsentGiven', 'MemberProfileUpdated', 'MemberPhoneVerified', 'LoanApplicationOpened', 'LoanApplied', 'MemberNotified']) expect(types).toContain(type);
    expect(data.events.every((event: { stream: string }) => event.stream === streams.member(borrower.id) || event.stream === streams.loan(loan.id))).toBe(true);
    // Credentials never leave the write side.
    expect(text).not.toContain('$argon2id$');
    // Nothing of the other member.
    for (const trace of [other.borrower.id, other.loan.id, other.borrower.phone, 'Antonio', 'only Antonio']) expect(text).not.toContain(trace);
  });

  it('is for the signed-in borrower only', async () => {
    expect((await system.request('GET', '/api/user/export')).status).toBe(401);
    expect((await system.request('GET', '/api/user/export', { token: officer.token })).status).toBe(403);
  });
});

describe('closing the account (RA 10173 sec. 16(e))', () => {
  it('refuses while obligations are open (409 with the obligations listed), records the request, and shows it to admins', async () => {
    const { borrower, loan } = await borrowerWithPendingLoan(system, 'Emilio Jacinto');
    const refused = await system.request('POST', '/api/user/closure-request', { token: borrower.token, body: { reason: 'I want to stop using Honeylend' } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CLOSURE_OBLIGATIONS_OPEN');
    expect(refused.body.details.obligations).toEqual([{ kind: 'loan', loanId: loan.id, message: expect.stringContaining('loan') }]);
    // Still signed in: nothing was closed.
    expect((await system.request('GET', '/api/user/profile', { token: borrower.token })).status).toBe(200);

    const listed = await system.request('GET', '/api/admin/users?closure=refused', { token: officer.token });
    expect(listed.status).toBe(200);
    const row = listed.body.items.find((item: { id: string }) => item.id === borrower.id);
    expect(row).toMatchObject({ fullName: 'Emilio Jacinto', closure: { outcome: 'refused', reason: 'I want to stop using Honeylend', closedAt: null } });
    expect(row.closure.obligations.map((obligation: { kind: string }) => obligation.kind)).toEqual(['loan']);
    const requested = await system.request('GET', '/api/admin/users?closure=requested', { token: officer.token });
    expect(requested.body.items.map((item: { id: string }) => item.id)).toContain(borrower.id);
    const closed = await system.request('GET', '/api/admin/users?closure=closed', { token: officer.token });
    expect(closed.body.items.map((item: { id: string }) => item.id)).not.toContain(borrower.id);
  });

  it('lists money in the wallet and a pending withdrawal as obligations', async () => {
    const borrower = await registerBorrower(system, 'Marcelo del Pilar');
    await disburse(system, borrower, 300_000);
    const withdrawal = await pendingWithdrawal(system, borrower, 1_000);
    const refused = await system.request('POST', '/api/user/closure-request', { token: borrower.token, body: { reason: 'moving abroad' } });
    expect(refused.status).toBe(409);
    expect(refused.body.details.obligations).toEqual([
      { kind: 'withdrawal', withdrawalId: withdrawal.id, message: expect.any(String) },
      { kind: 'wallet', balance: 2_000, message: 'Your wallet holds ₱2,000.00: withdraw it to your bank account first.' },
    ]);
  });

  it('closes an account with nothing owed: signed out, sign-in refused, personal data masked in every admin and auditor answer', async () => {
    const borrower = await registerBorrower(system, 'Teodora Alonso');
    await verifyBorrower(system, borrower);
    await disburse(system, borrower, 200_000);
    const withdrawal = await pendingWithdrawal(system, borrower, 2_000);
    expect((await system.request('PUT', `/api/admin/withdrawals/${withdrawal.id}`, { token: officer.token, body: { status: 'completed' } })).status).toBe(200);
    const digits = borrower.phone.slice(-4);

    const closed = await system.request('POST', '/api/user/closure-request', { token: borrower.token, body: { reason: 'I no longer need the account' } });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body).toMatchObject({ success: true, closure: { outcome: 'closed', obligations: [] } });
    expect(closed.body.message).toContain('5 years');

    // Signed out: the token is refused at once.
    expect((await system.request('GET', '/api/user/profile', { token: borrower.token })).status).toBe(401);
    // Cannot sign in, with a clear message (the right password; a wrong one gets the usual 401).
    const signIn = await system.request('POST', '/api/auth/login', { body: { phone: borrower.phone, password: PASSWORD } });
    expect(signIn.status).toBe(403);
    expect(signIn.body).toMatchObject({ code: 'ACCOUNT_CLOSED', accountStatus: 'closed' });
    expect(signIn.body.message).toContain('closed at your request');
    expect((await system.request('POST', '/api/auth/login', { body: { phone: borrower.phone, password: 'Wrong#Password1' } })).status).toBe(401);

    // The admin's list and detail: masked, with the closure shown.
    const listed = await system.request('GET', '/api/admin/users?closure=closed', { token: officer.token });
    const row = listed.body.items.find((item: { id: string }) => item.id === borrower.id);
    expect(row).toMatchObject({
      fullName: 'T.',
      phone: `••••${digits}`,
      address: '••••',
      referenceName: 'J.',
      bankAccountNumber: '••••7890',
      idFrontUrl: null,
      closure: { outcome: 'closed', reason: 'I no longer need the account' },
    });
    const detail = await system.request('GET', `/api/admin/users/${borrower.id}`, { token: officer.token });
    expect(detail.status).toBe(200);
    expect(detail.body.fullName).toBe('T.');
    const searched = await system.request('GET', '/api/admin/users?search=Teodora', { token: officer.token });
    expect(searched.body.items.map((item: { id: string }) => item.id)).not.toContain(borrower.id);
    const paidOut = await system.request('GET', `/api/admin/withdrawals/${withdrawal.id}`, { token: officer.token });
    expect(JSON.stringify(paidOut.body)).not.toContain('1234567890');

    // The history an admin opens from the member's row, and the auditor's view: masked too.
    for (const [token, path] of [
      [officer.token, `/api/admin/audit/${streams.member(borrower.id)}`],
      [auditor.token, `/api/audit/streams/${streams.member(borrower.id)}`],
    ] as const) {
      const history = await system.request('GET', path, { token });
      expect(history.status, path).toBe(200);
      const text = JSON.stringify(history.body);
      for (const trace of ['Teodora', 'Alonso', borrower.phone, '1234567890', 'Rizal Avenue']) expect(text, `${path} ${trace}`).not.toContain(trace);
    }
    // The log keeps what the law requires.
    const events = await system.store.readStream(streams.member(borrower.id));
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(['MemberRegistered', 'MemberClosureRequested', 'MemberAccountClosed']));
    expect(events.find((event) => event.type === 'MemberRegistered')!.data.fullName).toBe('Teodora Alonso');
  });
});

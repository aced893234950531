import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@honeylend/contracts';
import { startTestSystem, type TestSystem } from '../testing/testSystem.js';
import { registerBorrower } from '../testing/borrowers.js';
import { acceptDisclosure, adminLogin, borrowerWithPendingLoan, createAdmin, superadminToken, type TestAdmin } from '../testing/admins.js';

let system: TestSystem;
let officer: TestAdmin;
let otherOfficer: TestAdmin;
beforeAll(async () => {
  system = await startTestSystem();
  const main = await superadminToken(system);
  officer = await createAdmin(system, main);
  otherOfficer = await createAdmin(system, main);
});
afterAll(() => system?.stop());

const setStatus = (loanId: string, body: Record<string, unknown>, token = officer.token) => system.request('PUT', `/api/admin/loans/${loanId}`, { token, body });
const eventsOf = async (stream: string, type: string) => (await system.store.readStream(stream)).filter((e) => e.type === type);

async function outboxFor(token: string): Promise<{ to: string; body: string }[]> {
  return (await system.request('GET', '/api/dev/outbox', { token })).body;
}

async function eventually<T>(read: () => Promise<T | undefined>, what: string, deadlineMs = 5_000): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('admin loans: the borrowing list', () => {
  it("lists loans with the spec's columns and finds them by loan number, member name, phone and status", async () => {
    const tag = `Dalisay${Date.now() % 100000}`;
    const { borrower, loan } = await borrowerWithPendingLoan(system, `${tag} Ramos`, 120_000);
    const byName = await system.request('GET', `/api/admin/loans?search=${tag}`, { token: officer.token });
    expect(byName.status).toBe(200);
    expect(byName.body).toMatchObject({ total: 1, page: 1, pageSize: 20 });
    expect(byName.body.items[0]).toMatchObject({
      id: loan.id,
      loanNumber: loan.loanNumber,
      amount: 120000,
      termMonths: 12,
      interestRate: 2.5,
      status: 'pending',
      member: { id: borrower.id, fullName: `${tag} Ramos`, phone: borrower.phone, balance: 0, creditScore: 500, otp: null },
    });
    for (const search of [loan.loanNumber, loan.loanNumber.toLowerCase(), `0${borrower.phone.slice(3)}`, `${tag} pending`]) {
      const res = await system.request('GET', `/api/admin/loans?search=${encodeURIComponent(search)}`, { token: officer.token });
      expect(
        res.body.items.map((l: any) => l.id),
        search,
      ).toEqual([loan.id]);
    }
    const notDenied = await system.request('GET', `/api/admin/loans?search=${tag}&status=denied`, { token: officer.token });
    expect(notDenied.body.total).toBe(0);
    const pending = await system.request('GET', `/api/admin/loans?search=${tag}&status=pending`, { token: officer.token });
    expect(pending.body.total).toBe(1);
    // A renamed member is found under the new name at once.
    await system.request('PUT', `/api/admin/users/${borrower.id}`, { token: officer.token, body: { fullName: `${tag} Villanueva` } });
    const renamed = await system.request('GET', `/api/admin/loans?search=villanueva ${tag}`, { token: officer.token });
    expect(renamed.body.items.map((l: any) => l.id)).toEqual([loan.id]);
    const bad = await system.request('GET', '/api/admin/loans?status=Not%20A%20Status!', { token: officer.token });
    expect(bad.status).toBe(400);
    expect(bad.body.details.fields.status).toBe('Choose a loan status, or all');
  });
});

describe('admin loans: the status machine', () => {
  it('approves a loan: the principal reaches the wallet once the borrower accepts the Disclosure Statement, once, and the borrower can see it', async () => {
    const { borrower, loan } = await borrowerWithPendingLoan(system, 'Approved Borrower');
    const res = await setStatus(loan.id, { status: 'approved' });
    expect(res.status).toBe(200);
    // RA 3765: approval alone moves no money; the admin sees the loan awaiting the borrower's acceptance.
    expect(res.body).toMatchObject({ status: 'approved', member: { balance: 0 }, acceptance: { awaiting: true, acceptedAt: null } });
    expect(await eventsOf(streams.member(borrower.id), 'LoanDisbursed')).toHaveLength(0);
    const accepted = await acceptDisclosure(system, borrower.token, loan.id);
    // Acceptance disburses and opens the account at once: the loan is active with its schedule fixed.
    expect(accepted).toMatchObject({ status: 'active', schedule: expect.any(Array), outstanding: { principal: 80000 }, acceptance: { awaiting: false } });
    const profile = await system.request('GET', '/api/user/profile', { token: borrower.token });
    expect(profile.body.balance).toBe(80000);
    const again = await setStatus(loan.id, { status: 'approved' });
    expect(again.status).toBe(200);
    expect(await eventsOf(streams.member(borrower.id), 'LoanDisbursed')).toHaveLength(1);
    expect(await eventsOf(streams.loan(loan.id), 'LoanAccountOpened')).toHaveLength(1);
    // Active and completed follow the money: an admin cannot set them (the loan closes when it is paid off).
    const refused = await setStatus(loan.id, { status: 'completed' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('ILLEGAL_STATUS_CHANGE');
    const payoff = await system.request('GET', `/api/loans/${loan.id}/payoff-quote`, { token: borrower.token });
    expect((await system.request('POST', `/api/loans/${loan.id}/repayments`, { token: borrower.token, body: { amount: payoff.body.amount } })).status).toBe(201);
    expect((await system.request('GET', `/api/loans/${loan.id}`, { token: borrower.token })).body.status).toBe('completed');
    const next = await system.request('POST', '/api/loans', { token: borrower.token, body: { amount: 90000, purpose: 'Second store', termMonths: 6 } });
    expect(next.status).toBe(201);
    expect((await eventsOf(streams.member(borrower.id), 'LoanDisbursed')).map((e) => e.data.amountCentavos)).toEqual([8_000_000]);
  });

  it('disburses exactly once when two admins approve the same loan at the same moment', async () => {
    for (let round = 0; round < 3; round++) {
      const { borrower, loan } = await borrowerWithPendingLoan(system, `Race ${round}`);
      const answers = await Promise.all([setStatus(loan.id, { status: 'approved' }, officer.token), setStatus(loan.id, { status: 'approved' }, otherOfficer.token)]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect(await eventsOf(streams.loan(loan.id), 'LoanStatusChanged')).toHaveLength(1);
      // The borrower accepts twice at the same moment (two taps, two tabs): still one disbursement.
      await Promise.all([acceptDisclosure(system, borrower.token, loan.id), acceptDisclosure(system, borrower.token, loan.id)]);
      expect(await eventsOf(streams.loan(loan.id), 'LoanTermsAccepted')).toHaveLength(1);
      expect(await eventsOf(streams.member(borrower.id), 'LoanDisbursed')).toHaveLength(1);
      expect(await eventsOf(streams.loan(loan.id), 'LoanAccountOpened')).toHaveLength(1);
      const profile = await system.request('GET', '/api/user/profile', { token: borrower.token });
      expect(profile.body.balance).toBe(80000);
    }
  });

  it('answers an illegal move with 409 naming the current status, and records nothing', async () => {
    const { borrower, loan } = await borrowerWithPendingLoan(system, 'Illegal Moves');
    const skip = await setStatus(loan.id, { status: 'active' });
    expect(skip.status).toBe(409);
    expect(skip.body).toMatchObject({
      code: 'ILLEGAL_STATUS_CHANGE',
      message: 'A loan becomes active when its accepted approval disburses it, completed only when it is fully repaid, and lapsed only when its approval was not accepted in time; none can be set by hand.',
      currentStatus: 'pending',
    });
    await setStatus(loan.id, { status: 'denied' });
    for (const to of ['approved', 'pending', 'account_issue', 'completed']) {
      const res = await setStatus(loan.id, { status: to, message: 'Please upload a clearer ID photo' });
      expect(res.status, to).toBe(409);
      expect(res.body.currentStatus).toBe('denied');
    }
    expect(await eventsOf(streams.loan(loan.id), 'LoanStatusChanged')).toHaveLength(1);
    expect(await eventsOf(streams.member(borrower.id), 'LoanDisbursed')).toHaveLength(0);
    const unknown = await setStatus(loan.id, { status: 'frozen' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('UNKNOWN_LOAN_STATUS');
  });

  it('requires a message saying what to fix for account_issue, sends it to the borrower, and never lets a status ask for money', async () => {
    const { borrower, loan } = await borrowerWithPendingLoan(system, 'Account Issue');
    const silent = await setStatus(loan.id, { status: 'account_issue' });
    expect(silent.status).toBe(400);
    expect(silent.body).toMatchObject({ code: 'MESSAGE_REQUIRED', message: 'Tell the borrower what to fix: account_issue needs a message.' });
    for (const message of ['Please pay a processing fee of 2,000 to release your loan', 'Deposit 5000 to unlock your account', 'Send the amount by GCash to 0917']) {
      const scam = await setStatus(loan.id, { status: 'account_issue', message });
      expect(scam.status, message).toBe(400);
      expect(scam.body.code).toBe('MONEY_REQUEST');
    }
    expect(await eventsOf(streams.loan(loan.id), 'LoanStatusChanged')).toHaveLength(0);

    const res = await setStatus(loan.id, { status: 'account_issue', message: 'Your selfie is blurred. Please upload a clearer one.' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'account_issue', statusMessage: 'Your selfie is blurred. Please upload a clearer one.' });
    const notifications = await system.request('GET', '/api/notifications', { token: borrower.token });
    expect(notifications.body[0]).toMatchObject({ type: 'loan_update', message: 'Your selfie is blurred. Please upload a clearer one.', title: `Loan ${loan.loanNumber} update` });
    const sms = await eventually(async () => (await outboxFor(borrower.token)).find((m) => m.body.includes('selfie is blurred')), 'the SMS');
    expect(sms.to).toBe(borrower.phone);
    const borrowerView = await system.request('GET', '/api/loans/user', { token: borrower.token });
    expect(borrowerView.body[0]).toMatchObject({ status: 'account_issue', statusMessage: 'Your selfie is blurred. Please upload a clearer one.' });
    // account_issue → pending → approved
    expect((await setStatus(loan.id, { status: 'pending' })).body.status).toBe('pending');
  });

  it('notifies the borrower on request, with the spec default message for pending', async () => {
    const { borrower, loan } = await borrowerWithPendingLoan(system, 'Notify Me');
    await setStatus(loan.id, { status: 'account_issue', message: 'Your ID front is cut off. Please upload it again.' });
    const back = await setStatus(loan.id, { status: 'pending', notify: true });
    expect(back.status).toBe(200);
    const approved = await setStatus(loan.id, { status: 'approved', notify: { title: 'Good news', message: 'Your loan is approved. Accept its Disclosure Statement in the app.' } });
    expect(approved.status).toBe(200);
    const notifications = await system.request('GET', '/api/notifications', { token: borrower.token });
    expect(notifications.body.map((n: any) => n.message)).toEqual([
      'Your loan is approved. Accept its Disclosure Statement in the app.',
      'Your loan application is under review. We will tell you here and by text as soon as it is decided.',
      'Your ID front is cut off. Please upload it again.',
    ]);
    await eventually(async () => ((await outboxFor(borrower.token)).some((m) => m.body === 'Honeylend: Good news — Your loan is approved. Accept its Disclosure Statement in the app.') ? true : undefined), 'the SMS');
    const events = await eventsOf(streams.member(borrower.id), 'MemberNotified');
    expect(events.every((e) => e.metadata.actorId === officer.id && e.metadata.ip === '127.0.0.1')).toBe(true);
  });

  it('records the acting admin and address on every status event', async () => {
    const { loan } = await borrowerWithPendingLoan(system, 'Audited Loan');
    await setStatus(loan.id, { status: 'denied' }, otherOfficer.token);
    const [changed] = await eventsOf(streams.loan(loan.id), 'LoanStatusChanged');
    expect(changed.metadata).toMatchObject({ actorId: otherOfficer.id, ip: '127.0.0.1' });
    expect(changed.data).toMatchObject({ from: 'pending', to: 'denied' });
  });
});

describe('admin loans: amount, term and deletion', () => {
  it('changes the amount and term of a pending loan within the admin limits, and not after approval', async () => {
    const { borrower, loan } = await borrowerWithPendingLoan(system, 'Terms Change');
    const res = await setStatus(loan.id, { amount: 150000, termMonths: 60 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ amount: 150000, termMonths: 60, status: 'pending' });
    expect(res.body.schedule).toHaveLength(60);
    for (const [body, field, message] of [
      [{ termMonths: 61 }, 'termMonths', 'Maximum term is 60 months'],
      [{ termMonths: 5 }, 'termMonths', 'Minimum term is 6 months'],
      [{ amount: 70000 }, 'amount', 'Minimum loan amount is ₱80,000'],
      [{ amount: 4_010_000 }, 'amount', 'Maximum loan amount is ₱4,000,000'],
      [{}, 'status', 'Send a status, or an amount and term'],
    ] as const) {
      const bad = await setStatus(loan.id, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.details.fields[field]).toBe(message);
    }
    // Approval, once accepted, pays out the amount as changed.
    expect((await setStatus(loan.id, { status: 'approved' })).body.member.balance).toBe(0);
    const accepted = await acceptDisclosure(system, borrower.token, loan.id);
    expect(accepted.amount).toBe(150000);
    expect((await system.request('GET', '/api/user/profile', { token: borrower.token })).body.balance).toBe(150000);
    const late = await setStatus(loan.id, { amount: 200000 });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'LOAN_NOT_PENDING', currentStatus: 'active' });
  });

  it('deletes only pending or denied loans; the member may then apply again', async () => {
    const { borrower, loan } = await borrowerWithPendingLoan(system, 'Delete Loan');
    const deleted = await system.request('DELETE', `/api/admin/loans/${loan.id}`, { token: officer.token });
    expect(deleted.status).toBe(200);
    expect((await system.request('GET', `/api/admin/loans/${loan.id}`, { token: officer.token })).status).toBe(404);
    expect((await system.request('GET', '/api/loans/user', { token: borrower.token })).body).toEqual([]);
    expect((await setStatus(loan.id, { status: 'approved' })).status).toBe(404);
    const reapplied = await system.request('POST', '/api/loans', { token: borrower.token, body: { amount: 80000, purpose: 'Try again', termMonths: 12 } });
    expect(reapplied.status).toBe(201);
    await setStatus(reapplied.body.id, { status: 'approved' });
    const refused = await system.request('DELETE', `/api/admin/loans/${reapplied.body.id}`, { token: officer.token });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'LOAN_NOT_DELETABLE', message: 'Only pending or denied loans can be deleted; this loan is approved.', currentStatus: 'approved' });
  });
});

describe('admin loans: custom statuses', () => {
  it('stores custom statuses for every admin, lowercased and unique, and moves loans under review through them', async () => {
    const created = await system.request('POST', '/api/admin/loan-statuses', { token: officer.token, body: { status: '  For Interview ' } });
    expect(created.status).toBe(201);
    expect(created.body.custom).toContain('for_interview');
    const seenByAnother = await system.request('GET', '/api/admin/loan-statuses', { token: otherOfficer.token });
    expect(seenByAnother.body.statuses).toEqual(expect.arrayContaining(['pending', 'approved', 'denied', 'account_issue', 'for_interview']));
    for (const duplicate of ['for-interview', 'FOR_INTERVIEW', 'Pending']) {
      const res = await system.request('POST', '/api/admin/loan-statuses', { token: otherOfficer.token, body: { status: duplicate } });
      expect(res.status, duplicate).toBe(409);
      expect(res.body.code).toBe('LOAN_STATUS_EXISTS');
    }
    const bad = await system.request('POST', '/api/admin/loan-statuses', { token: officer.token, body: { status: '9 lives!' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('A status has 2 to 40 letters, digits or underscores and starts with a letter');
    expect((await system.request('POST', '/api/admin/loan-statuses', { token: officer.token, body: {} })).body.message).toBe('Enter a status name');

    const { loan } = await borrowerWithPendingLoan(system, 'Custom Status');
    expect((await setStatus(loan.id, { status: 'For Interview' })).body.status).toBe('for_interview');
    const listed = await system.request('GET', '/api/admin/loans?status=for_interview', { token: officer.token });
    expect(listed.body.items.map((l: any) => l.id)).toContain(loan.id);
    expect((await setStatus(loan.id, { status: 'active' })).status).toBe(409);
    expect((await setStatus(loan.id, { status: 'approved' })).body.status).toBe('approved');
    expect((await setStatus(loan.id, { status: 'for_interview' })).status).toBe(409);

    const removeBuiltIn = await system.request('DELETE', '/api/admin/loan-statuses/pending', { token: officer.token });
    expect(removeBuiltIn.status).toBe(409);
    const removed = await system.request('DELETE', '/api/admin/loan-statuses/for_interview', { token: officer.token });
    expect(removed.status).toBe(200);
    expect(removed.body.custom).not.toContain('for_interview');
    expect((await system.request('DELETE', '/api/admin/loan-statuses/for_interview', { token: officer.token })).status).toBe(404);
  });
});

describe('admin loans: who may', () => {
  it('answers 401 without a token and 403 for a borrower on every loan route', async () => {
    const { borrower, loan } = await borrowerWithPendingLoan(system, 'Self Approver');
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/loans'],
      ['GET', `/api/admin/loans/${loan.id}`],
      ['PUT', `/api/admin/loans/${loan.id}`, { status: 'approved' }],
      ['DELETE', `/api/admin/loans/${loan.id}`],
      ['GET', '/api/admin/loan-statuses'],
      ['POST', '/api/admin/loan-statuses', { status: 'vip' }],
      ['DELETE', '/api/admin/loan-statuses/vip'],
    ];
    for (const [method, path, body] of routes) {
      expect((await system.request(method, path, { body })).status, `${method} ${path}`).toBe(401);
      const res = await system.request(method, path, { body, token: borrower.token });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe('ACCESS_DENIED');
    }
    expect((await system.request('GET', '/api/loans/user', { token: borrower.token })).body[0].status).toBe('pending');
  });

  it('signs an admin in with their email or phone as well', async () => {
    expect(await adminLogin(system, officer.email.toUpperCase(), officer.password)).toEqual(expect.any(String));
    expect(await adminLogin(system, officer.phone, officer.password)).toEqual(expect.any(String));
    const borrower = await registerBorrower(system, 'Not Staff');
    const wrong = await system.request('POST', '/api/auth/admin-login', { body: { username: borrower.phone, password: 'Sampaguita#2026' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe('Invalid username or password');
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@honeylend/contracts';
import { startTestSystem, type TestSystem } from '../testing/testSystem.js';
import { borrowerWithPendingLoan, createAdmin, superadminToken, type TestAdmin } from '../testing/admins.js';

/** The two texts an outside review got delivered to a borrower, word for word, and the status it got shown. */
const ENGLISH = 'To release your loan, settle PHP 2,500 via GCash 0917-123-4567';
const TAGALOG = 'Para ma-release ang loan mo, magbayad ng PHP 2,500 sa GCash 0917-123-4567.';
const SCAM_STATUS = 'pay_release_fee_gcash_09171234567';

let system: TestSystem;
let mainToken: string;
let officer: TestAdmin;
beforeAll(async () => {
  system = await startTestSystem();
  mainToken = await superadminToken(system);
  officer = await createAdmin(system, mainToken);
});
afterAll(() => system?.stop());

const eventsOf = async (stream: string, type: string) => (await system.store.readStream(stream)).filter((e) => e.type === type);
const outboxOf = async (token: string): Promise<{ to: string; body: string }[]> => (await system.request('GET', '/api/dev/outbox', { token })).body;

describe('no staff text asks a borrower for money, through the real routes', () => {
  it('refuses the reproduced English and Tagalog texts as a status message, a notification title or text, and a message to the member; nothing reaches the borrower', async () => {
    const { borrower, loan } = await borrowerWithPendingLoan(system, 'Liza Manalo');
    const noticesBefore = await eventsOf(streams.member(borrower.id), 'MemberNotified');
    const inboxBefore = (await system.request('GET', '/api/notifications', { token: borrower.token })).body;
    const attempts: [string, string, Record<string, unknown>][] = [];
    for (const text of [ENGLISH, TAGALOG]) {
      attempts.push(
        ['PUT', `/api/admin/loans/${loan.id}`, { status: 'account_issue', message: text }],
        ['PUT', `/api/admin/loans/${loan.id}`, { status: 'approved', notify: { message: text } }],
        ['PUT', `/api/admin/loans/${loan.id}`, { status: 'denied', notify: { title: text, message: 'Please read this.' } }],
        ['POST', '/api/admin/notifications', { userId: borrower.id, title: 'Loan update', message: text }],
        ['POST', '/api/admin/notifications', { userId: borrower.id, title: text, message: 'Please read this.' }],
      );
    }
    for (const [method, path, body] of attempts) {
      const res = await system.request(method, path, { token: officer.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('MONEY_REQUEST');
      expect(res.body.message).toMatch(/may not ask the borrower to pay, deposit or send money/);
    }
    expect(await eventsOf(streams.loan(loan.id), 'LoanStatusChanged')).toHaveLength(0);
    expect(await eventsOf(streams.member(borrower.id), 'MemberNotified')).toEqual(noticesBefore);
    expect((await system.request('GET', '/api/notifications', { token: borrower.token })).body).toEqual(inboxBefore);
    expect((await outboxOf(borrower.token)).filter((sms) => sms.to === borrower.phone && /GCash|magbayad/i.test(sms.body))).toEqual([]);

    // The ordinary text about the same loan still goes through.
    const fine = await system.request('POST', '/api/admin/notifications', {
      token: officer.token,
      body: { userId: borrower.id, title: 'Loan update', message: `Your loan ${loan.loanNumber} of ₱80,000 is under review. We will text you when it is decided.` },
    });
    expect(fine.status).toBe(201);
  });

  it(`refuses a custom loan status like ${SCAM_STATUS}, and moving a loan to one defined before the names were checked`, async () => {
    for (const status of [SCAM_STATUS, 'Pay Release Fee GCash 0917 123 4567', 'gcash_09171234567', 'magbayad_muna_2500_piso']) {
      const res = await system.request('POST', '/api/admin/loan-statuses', { token: officer.token, body: { status } });
      expect(res.status, status).toBe(400);
      expect(res.body).toMatchObject({ code: 'MONEY_REQUEST', details: { fields: { status: expect.stringContaining('A loan status is shown to the borrower') } } });
    }
    expect((await system.request('GET', '/api/admin/loan-statuses', { token: officer.token })).body.custom).not.toContain(SCAM_STATUS);
    expect(await eventsOf(streams.loanStatuses, 'LoanStatusDefined')).toEqual([]);
    expect((await system.request('POST', '/api/admin/loan-statuses', { token: officer.token, body: { status: 'site_visit_2' } })).status).toBe(201);

    // A store written before this check may hold such a status: no loan moves to it, so no borrower is shown it.
    await system.store.append(streams.loanStatuses, [{ id: randomUUID(), type: 'LoanStatusDefined', data: { status: SCAM_STATUS, definedAt: new Date().toISOString() } }], { expectedRevision: 'any' });
    const { borrower, loan } = await borrowerWithPendingLoan(system, 'Rosa Bautista');
    const noticesBefore = await eventsOf(streams.member(borrower.id), 'MemberNotified');
    const moved = await system.request('PUT', `/api/admin/loans/${loan.id}`, { token: officer.token, body: { status: SCAM_STATUS, notify: true } });
    expect(moved.status).toBe(400);
    expect(moved.body).toMatchObject({ code: 'MONEY_REQUEST', details: { fields: { status: expect.any(String) } } });
    expect(await eventsOf(streams.loan(loan.id), 'LoanStatusChanged')).toHaveLength(0);
    expect((await system.request('GET', '/api/loans/user', { token: borrower.token })).body[0].status).toBe('pending');
    expect(await eventsOf(streams.member(borrower.id), 'MemberNotified')).toEqual(noticesBefore);
  });

  it("refuses company details (every borrower page's footer) that ask for money, and keeps a plain phone number as the contact", async () => {
    const company = {
      companyName: 'Pulot Lending Corporation',
      secRegistrationNumber: 'CS202012345',
      certificateOfAuthorityNumber: '3456',
      dateRegistered: '2020-03-02',
      status: 'Registered',
      address: '8F Net Park, 5th Avenue, Bonifacio Global City, Taguig',
      contact: '0917 123 4567',
    };
    for (const contact of [ENGLISH, TAGALOG]) {
      const res = await system.request('PUT', '/api/admin/settings/company', { token: mainToken, body: { ...company, contact } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'MONEY_REQUEST', details: { fields: { contact: expect.any(String) } } });
    }
    expect(await eventsOf(streams.company, 'CompanyDetailsSet')).toEqual([]);
    expect((await system.request('PUT', '/api/admin/settings/company', { token: mainToken, body: company })).status).toBe(200);
    expect((await system.request('GET', '/api/company')).body.contact).toBe('0917 123 4567');
  });
});

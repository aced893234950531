import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@honeylend/contracts';
import { borrowerWithPendingLoan, superadminToken } from '../testing/admins.js';
import { moveBusinessDate } from '../testing/servicing.js';
import { startTestSystem, type TestSystem } from '../testing/testSystem.js';

/*
 * Spec §9 "first due two months after the loan is made", read as after the money is lent: a loan
 * approved months after it was applied for starts its schedule on the day it is disbursed (the
 * borrower's acceptance of the Disclosure Statement), and the statement shown for acceptance is the
 * schedule that then applies.
 */
let system: TestSystem;
let admin: string;
// 10:00 in Manila on 2 September 2026: the applications are made then.
const clock = new Date('2026-09-02T02:00:00.000Z');
beforeAll(async () => {
  system = await startTestSystem({ now: () => clock });
  admin = await superadminToken(system);
}, 120_000);
afterAll(() => system?.stop());

interface Row {
  number: number;
  dueDate: string;
  amount: number;
}

/** The schedule as the statement's text prints it ("1    2027-01-25   PHP 16,250.00 …"). */
function statementSchedule(statement: string): Row[] {
  return statement
    .split('\n')
    .map((line) => /^(\d+)\s+(\d{4}-\d{2}-\d{2})\s+PHP ([\d,]+\.\d{2})/.exec(line))
    .filter((match) => match !== null)
    .map(([, number, dueDate, amount]) => ({ number: Number(number), dueDate, amount: Number(amount.replaceAll(',', '')) }));
}

const rowsOf = (schedule: Row[]): Row[] => schedule.map(({ number, dueDate, amount }) => ({ number, dueDate, amount }));
const approve = (loanId: string) => system.request('PUT', `/api/admin/loans/${loanId}`, { token: admin, body: { status: 'approved' } });
const disclosureOf = (token: string, loanId: string) => system.request('GET', `/api/loans/${loanId}/disclosure`, { token });
const accept = (token: string, loanId: string, hash: string) => system.request('POST', `/api/loans/${loanId}/acceptance`, { token, body: { hash } });

describe('a loan approved months after it was applied for', () => {
  it('starts its schedule on the day it is disbursed: nothing past due, no interest for the months before, the statement accepted is the schedule that applies', async () => {
    const { borrower, loan } = await borrowerWithPendingLoan(system, 'Rodel Villanueva', 150_000);
    expect(loan.createdAt.slice(0, 10)).toBe('2026-09-02');

    await moveBusinessDate(system, admin, '2026-11-25');
    expect((await approve(loan.id)).status).toBe(200);

    // Before acceptance: the statement and the app's schedule both count from today, 25 November.
    const disclosure = await disclosureOf(borrower.token, loan.id);
    expect(disclosure.status).toBe(200);
    const shown = statementSchedule(disclosure.body.statement);
    expect(shown).toHaveLength(12);
    expect(shown.slice(0, 2).map((row) => row.dueDate)).toEqual(['2027-01-25', '2027-02-25']);
    expect(disclosure.body.statement).toContain('Accepted today (2026-11-25), instalment 1 is due 2027-01-25');
    const before = await system.request('GET', `/api/loans/${loan.id}`, { token: borrower.token });
    expect(rowsOf(before.body.schedule)).toEqual(shown);
    expect(before.body.disbursement).toEqual({ on: '2026-11-25', done: false });
    expect(before.body.schedule.every((row: { status: string }) => row.status === 'upcoming')).toBe(true);

    const accepted = await accept(borrower.token, loan.id, disclosure.body.hash);
    expect(accepted.status).toBe(200);
    // After: the very schedule the borrower accepted, first due two months after the disbursement, nothing past due.
    expect(accepted.body).toMatchObject({ status: 'active', daysPastDue: 0, delinquencyBucket: 'current', disbursement: { on: '2026-11-25', done: true } });
    expect(rowsOf(accepted.body.schedule)).toEqual(shown);
    expect(accepted.body.schedule.every((row: { status: string }) => row.status === 'upcoming')).toBe(true);
    const [opened] = (await system.store.readStream(streams.loan(loan.id))).filter((event) => event.type === 'LoanAccountOpened');
    expect(opened.data).toMatchObject({ businessDate: '2026-11-25' });

    // Paying off on the day of disbursement costs the principal alone: no interest for the time before the money was lent.
    const quote = await system.request('GET', `/api/loans/${loan.id}/payoff-quote`, { token: borrower.token });
    expect(quote.body).toMatchObject({ amount: 150_000, breakdown: { principal: 150_000, interest: 0, penalties: 0 } });

    // A month on, nothing has fallen due: no collections, no late charges.
    await moveBusinessDate(system, admin, '2026-12-31');
    const later = await system.request('GET', `/api/loans/${loan.id}`, { token: borrower.token });
    expect(later.body).toMatchObject({ daysPastDue: 0, delinquencyBucket: 'current', outstanding: { penalties: 0 } });
  });

  it('refuses a statement read on an earlier business date with the one that applies now, and disburses on the schedule of the statement accepted', async () => {
    const { borrower, loan } = await borrowerWithPendingLoan(system, 'Liza Manalo', 100_000);
    expect((await approve(loan.id)).status).toBe(200);
    const read = await disclosureOf(borrower.token, loan.id);
    const readOn = statementSchedule(read.body.statement)[0].dueDate;

    const { date } = (await system.request('GET', '/api/dev/business-date', { token: admin })).body as { date: string };
    const nextDay = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    await moveBusinessDate(system, admin, nextDay);

    const stale = await accept(borrower.token, loan.id, read.body.hash);
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('STATEMENT_CHANGED');
    const fresh = stale.body.details.disclosure as { statement: string; hash: string };
    expect(fresh.hash).not.toBe(read.body.hash);
    const freshSchedule = statementSchedule(fresh.statement);
    expect(freshSchedule[0].dueDate > readOn).toBe(true);
    expect(fresh.statement).toContain(`Accepted today (${nextDay})`);
    expect((await system.store.readStream(streams.loan(loan.id))).some((event) => event.type === 'LoanTermsAccepted')).toBe(false);

    const accepted = await accept(borrower.token, loan.id, fresh.hash);
    expect(accepted.status).toBe(200);
    expect(rowsOf(accepted.body.schedule)).toEqual(freshSchedule);
    expect(accepted.body.disbursement).toEqual({ on: nextDay, done: true });
  });
});

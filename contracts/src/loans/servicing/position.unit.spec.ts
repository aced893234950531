import { describe, expect, it } from 'vitest';
import { dayCloseEvents } from './dayClose.js';
import { evolveLoanAccount, type LoanAccountEvent } from './loanAccount.js';
import { loanPosition } from './position.js';
import { remindersDue } from './reminders.js';
import { foldAccount, LOAN_ID, MEMBER_ID, opened, repaid } from './testing/accountStory.js';

const INSTALMENT = 1_300_000;

describe('given a ₱120,000 loan over 12 months, disbursed on 20 January 2026', () => {
  it('when nothing is paid yet, then all twelve ₱13,000 instalments are upcoming and the payoff is the principal alone', () => {
    const position = loanPosition(foldAccount([opened()]), '2026-02-01');
    expect(position.instalments.map((line) => line.status)).toEqual(Array(12).fill('upcoming'));
    expect(position.instalments[0]).toMatchObject({ dueDate: '2026-03-15', amountCentavos: INSTALMENT, principalCentavos: 1_000_000, interestCentavos: 300_000 });
    expect(position.outstanding).toEqual({ principalCentavos: 12_000_000, interestCentavos: 3_600_000, penaltiesCentavos: 0, totalCentavos: 15_600_000 });
    expect(position.payoff.totalCentavos).toBe(12_000_000);
    expect(position.nextDue).toEqual({ date: '2026-03-15', amountCentavos: INSTALMENT });
    expect(position.bucket).toBe('current');
  });

  it('when the first instalment is paid on its due date, then interest is paid before principal and it is paid', () => {
    const position = loanPosition(foldAccount([opened(), repaid(INSTALMENT, '2026-03-15')]), '2026-03-15');
    expect(position.repayments[0].allocation).toEqual([{ instalment: 1, penaltyCentavos: 0, interestCentavos: 300_000, principalCentavos: 1_000_000 }]);
    expect(position.instalments[0].status).toBe('paid');
    expect(position.instalments[1].status).toBe('upcoming');
  });

  it('when an instalment is due today, then it is due; the day after, overdue by 1 day in the 1–30 bucket', () => {
    const account = foldAccount([opened()]);
    expect(loanPosition(account, '2026-03-15').instalments[0].status).toBe('due');
    const next = loanPosition(account, '2026-03-16');
    expect(next.instalments[0]).toMatchObject({ status: 'overdue', daysPastDue: 1 });
    expect(next).toMatchObject({ daysPastDue: 1, bucket: '1-30' });
  });

  it('when an instalment is 10 days late, then 2 % a month is charged for the 6 days after the 3-day grace: ₱52.00', () => {
    // Days charged: 19–24 March (the 25th is still open). 1,300,000 × 6 × 2 % / 30 = 5,200 centavos.
    const position = loanPosition(foldAccount([opened()]), '2026-03-25');
    expect(position.instalments[0].penaltyCentavos).toBe(5_200);
    expect(position.outstanding.penaltiesCentavos).toBe(5_200);
    expect(position.daysPastDue).toBe(10);
  });

  it('when a late payment comes in, then it pays the late charge first, then interest, then principal', () => {
    const position = loanPosition(foldAccount([opened(), repaid(INSTALMENT, '2026-03-25')]), '2026-03-25');
    expect(position.repayments[0].allocation).toEqual([{ instalment: 1, penaltyCentavos: 5_200, interestCentavos: 300_000, principalCentavos: 994_800 }]);
    expect(position.instalments[0]).toMatchObject({ status: 'overdue', unpaidPrincipalCentavos: 5_200 });
  });

  it('when more than an instalment is paid, then the surplus pays the next instalments (prepayment is free)', () => {
    const position = loanPosition(foldAccount([opened(), repaid(INSTALMENT + 500_000, '2026-03-10')]), '2026-03-10');
    expect(position.repayments[0].allocation).toEqual([
      { instalment: 1, penaltyCentavos: 0, interestCentavos: 300_000, principalCentavos: 1_000_000 },
      { instalment: 2, penaltyCentavos: 0, interestCentavos: 300_000, principalCentavos: 200_000 },
    ]);
    expect(position.instalments[1].status).toBe('partially_paid');
  });

  it('when the payoff amount is paid, then the loan closes and interest of instalments not yet due is forgiven', () => {
    // 1 April: instalment 1 overdue (its ₱3,000 interest due), 13 days charged (19–31 March): 1,300,000 × 13 × 2 % / 30 = 11,266.67 → 11,267.
    const account = foldAccount([opened()]);
    const quote = loanPosition(account, '2026-04-01').payoff;
    expect(quote).toEqual({ principalCentavos: 12_000_000, interestCentavos: 300_000, penaltiesCentavos: 11_267, totalCentavos: 12_311_267 });
    const paid = loanPosition(foldAccount([opened(), repaid(quote.totalCentavos, '2026-04-01')]), '2026-04-01');
    expect(paid.closed).toMatchObject({ valueDate: '2026-04-01', interestForgivenCentavos: 3_300_000 });
    expect(paid.outstanding.totalCentavos).toBe(0);
    expect(paid.instalments.every((line) => line.status === 'paid')).toBe(true);
    expect(paid.repayments[0].allocation.reduce((sum, line) => sum + line.penaltyCentavos + line.interestCentavos + line.principalCentavos, 0)).toBe(quote.totalCentavos);
  });

  it('when a repayment is reversed, then the position is the one without it', () => {
    const payment = repaid(INSTALMENT, '2026-03-15');
    const reversal: LoanAccountEvent = {
      type: 'RepaymentReversed',
      data: { loanId: LOAN_ID, memberId: MEMBER_ID, repaymentId: payment.data.repaymentId, reason: 'Cheque bounced', businessDate: '2026-03-30', reversedAt: '2026-03-30T01:00:00.000Z' },
    };
    const reversed = loanPosition(foldAccount([opened(), payment, reversal]), '2026-03-30');
    const without = loanPosition(foldAccount([opened()]), '2026-03-30');
    expect(reversed.instalments).toEqual(without.instalments);
    expect(reversed.repayments[0]).toMatchObject({ reversed: true, allocation: [] });
  });

  it('when a waiver is granted, then it takes late charges off, never more than are unpaid', () => {
    const waived = (amountCentavos: number): LoanAccountEvent => ({
      type: 'PenaltyWaived',
      data: { loanId: LOAN_ID, memberId: MEMBER_ID, waiverId: '9d1c7f0e-52a3-4b8e-9a61-3c5d7e9f1a20', amountCentavos, reason: 'Hospital stay', businessDate: '2026-03-25', waivedAt: '2026-03-25T01:00:00.000Z' },
    });
    expect(loanPosition(foldAccount([opened(), waived(2_000)]), '2026-03-25').outstanding.penaltiesCentavos).toBe(3_200);
    const tooMuch = loanPosition(foldAccount([opened(), waived(99_999)]), '2026-03-25');
    expect(tooMuch.outstanding.penaltiesCentavos).toBe(0);
    expect(tooMuch.waivers[0].appliedCentavos).toBe(5_200);
  });
});

describe('given the day close of a loan', () => {
  it('when its due date opens, then the instalment falls due; a day later the bucket moves; after the grace, daily charges', () => {
    let account = foldAccount([opened()]);
    const events = dayCloseEvents(account, '2026-03-20');
    expect(events.map((event) => `${event.type}@${event.data.businessDate}`)).toEqual([
      'InstalmentFellDue@2026-03-15',
      'DelinquencyBucketChanged@2026-03-16',
      'LoanDayClosed@2026-03-17',
      'LoanDayClosed@2026-03-18',
      'LoanDayClosed@2026-03-19',
      'LateChargeApplied@2026-03-20',
    ]);
    // One day (19 March) charged: 1,300,000 × 2 % / 30 = 866.67 → 867.
    expect(events.at(-1)).toMatchObject({ data: { instalment: 1, chargedFor: '2026-03-19', amountCentavos: 867 } });
    for (const event of events) account = evolveLoanAccount(account, event)!;
    expect(account.today).toBe('2026-03-20');
    expect(dayCloseEvents(account, '2026-03-20')).toEqual([]);
  });

  it('when days are closed one by one or all at once, then the same events are recorded', () => {
    let oneByOne = foldAccount([opened()]);
    const daily: LoanAccountEvent[] = [];
    for (let day = 1; day <= 45; day++) {
      const date = new Date(Date.UTC(2026, 2, day)).toISOString().slice(0, 10);
      for (const event of dayCloseEvents(oneByOne, date)) {
        daily.push(event);
        oneByOne = evolveLoanAccount(oneByOne, event)!;
      }
    }
    expect(dayCloseEvents(foldAccount([opened()]), '2026-04-14')).toEqual(daily);
  });

  it('when the loan is in good standing, then nothing is recorded between due dates', () => {
    const account = foldAccount([opened(), repaid(INSTALMENT, '2026-03-10')]);
    expect(dayCloseEvents(account, '2026-04-10')).toEqual([]);
  });
});

describe('given the reminders of a loan', () => {
  it('when 3 days before, on and 1 day after a due date, then one reminder each, never for a paid instalment', () => {
    const account = foldAccount([opened()]);
    expect(remindersDue(account, '2026-03-12')).toEqual([{ instalment: 1, reason: 'before_due', dueDate: '2026-03-15', amountCentavos: INSTALMENT }]);
    expect(remindersDue(account, '2026-03-15').map((r) => r.reason)).toEqual(['due_today']);
    expect(remindersDue(account, '2026-03-16').map((r) => r.reason)).toEqual(['overdue']);
    expect(remindersDue(account, '2026-03-05')).toEqual([]);
    expect(remindersDue(foldAccount([opened(), repaid(INSTALMENT, '2026-03-10')]), '2026-03-15')).toEqual([]);
    const sent = evolveLoanAccount(account, {
      type: 'RepaymentReminderSent',
      data: {
        loanId: LOAN_ID,
        memberId: MEMBER_ID,
        instalment: 1,
        reason: 'before_due',
        dueDate: '2026-03-15',
        amountCentavos: INSTALMENT,
        notificationId: '9d1c7f0e-52a3-4b8e-9a61-3c5d7e9f1a21',
        title: 'Instalment 1 due soon',
        message: 'Instalment 1 is due on 15 March 2026.',
        sentAt: '2026-03-12T01:00:00.000Z',
      },
    })!;
    expect(remindersDue(sent, '2026-03-13')).toEqual([]);
  });
});

import { DEFAULT_LATE_CHARGE_SETTINGS, loanPosition } from '@honeylend/contracts';
import { describe, expect, it } from 'vitest';
import { given } from '../platform/commands/testing/givenWhenThen.js';
import { LOAN_MESSAGES, loanDecider } from './decide.js';
import { evolveLoan, initialLoanState, type LoanEvent } from './loan.js';
import { appliedAndApproved, INSTALMENT_CENTAVOS, LOAN_ID, MEMBER_ID, OPENED_ON, ServicedLoan } from './testing/servicedLoan.js';

const opened = new ServicedLoan();
const openedEvent = opened.events.at(-1)!;
const account = [...appliedAndApproved, openedEvent];
const now = '2026-03-15T03:00:00.000Z';
const repaymentId = '9d1c7f0e-52a3-4b8e-9a61-3c5d7e9f1a20';
const record = (amountCentavos: number, valueDate: string, businessDate = valueDate, id = repaymentId, reference = 'GC-001') =>
  ({ type: 'RecordRepayment', loanId: LOAN_ID, repaymentId: id, amountCentavos, channel: 'gcash', source: 'admin', reference, valueDate, businessDate, now }) as const;
const received = (amountCentavos: number, valueDate: string, ordinal = 1, businessDate = valueDate, id = repaymentId, reference = 'GC-001'): LoanEvent => ({
  type: 'RepaymentReceived',
  data: { loanId: LOAN_ID, memberId: MEMBER_ID, repaymentId: id, receiptNumber: `OR-2026-000001-00${ordinal}`, amountCentavos, channel: 'gcash', source: 'admin', reference, valueDate, businessDate, receivedAt: now },
});

describe('given an approved loan', () => {
  it('when it is disbursed, then its account opens active with the spec §9 schedule fixed in the event', () => {
    expect(openedEvent).toMatchObject({ type: 'LoanAccountOpened', data: { businessDate: OPENED_ON, lateChargeMonthlyBps: 200, lateChargeGraceDays: 3 } });
    const schedule = (openedEvent as Extract<LoanEvent, { type: 'LoanAccountOpened' }>).data.schedule;
    expect(schedule).toHaveLength(12);
    expect(schedule[0]).toEqual({ number: 1, dueDate: '2026-03-15', principalCentavos: 1_000_000, interestCentavos: 300_000, amountCentavos: INSTALMENT_CENTAVOS });
    expect(opened.loan.status).toBe('active');
    given(loanDecider, account).when({ type: 'OpenLoanAccount', loanId: LOAN_ID, lateCharge: DEFAULT_LATE_CHARGE_SETTINGS, businessDate: '2026-01-21', now }).then([]);
    // Approving it again (a retry, a second admin) changes nothing.
    given(loanDecider, account).when({ type: 'ChangeLoanStatus', loanId: LOAN_ID, to: 'approved', message: null, customStatuses: [], now }).then([]);
  });

  it('when a loan was set active by hand before accounts existed, then approving it again opens its account', () => {
    const legacy: LoanEvent[] = [...appliedAndApproved, { type: 'LoanStatusChanged', data: { loanId: LOAN_ID, memberId: MEMBER_ID, from: 'approved', to: 'active', message: null, changedAt: now } }];
    given(loanDecider, legacy).when({ type: 'ChangeLoanStatus', loanId: LOAN_ID, to: 'approved', message: null, customStatuses: [], now }).then([]);
    const [event] = loanDecider.decide({ type: 'OpenLoanAccount', loanId: LOAN_ID, lateCharge: DEFAULT_LATE_CHARGE_SETTINGS, businessDate: '2026-03-01', now }, legacy.reduce(evolveLoan, initialLoanState()));
    expect(event.type).toBe('LoanAccountOpened');
  });

  it('when an admin asks for active or completed, then it is refused: the status follows the money', () => {
    for (const [history, statuses] of [
      [appliedAndApproved, ['active', 'completed']],
      [account, ['completed']],
    ] as const) {
      for (const to of statuses) {
        given(loanDecider, [...history])
          .when({ type: 'ChangeLoanStatus', loanId: LOAN_ID, to, message: null, customStatuses: [], now })
          .thenThrows('ILLEGAL_STATUS_CHANGE', LOAN_MESSAGES.statusFollowsMoney);
      }
    }
  });
});

describe('given an application approved months after it was made', () => {
  // Applied for on 2 September, approved and accepted on 25 November: the money reached the wallet on 25 November.
  const lateApproval: LoanEvent[] = [
    {
      type: 'LoanApplied',
      data: { loanId: LOAN_ID, memberId: MEMBER_ID, loanNumber: 'LN-2026-000001', amountCentavos: 12_000_000, termMonths: 12, monthlyRateBps: 250, purpose: 'Store stock', appliedAt: '2026-09-02T02:00:00.000Z' },
    },
    { type: 'LoanStatusChanged', data: { loanId: LOAN_ID, memberId: MEMBER_ID, from: 'pending', to: 'approved', message: null, changedAt: '2026-11-25T01:00:00.000Z' } },
    {
      type: 'LoanTermsAccepted',
      data: { loanId: LOAN_ID, memberId: MEMBER_ID, statementHash: 'e'.repeat(64), acceptedAt: '2026-11-25T02:00:00.000Z', ipAddress: '127.0.0.1', businessDate: '2026-11-25' },
    },
  ];
  const disburse = (businessDate: string) => ({ type: 'OpenLoanAccount', loanId: LOAN_ID, lateCharge: DEFAULT_LATE_CHARGE_SETTINGS, businessDate, now: `${businessDate}T02:00:30.000Z` }) as const;

  it('when it is disbursed, then the first instalment is due two months after the disbursement, nothing is past due and the payoff is the principal alone', () => {
    const loan = new ServicedLoan(lateApproval, '2026-11-25');
    const account = loan.loan.account!;
    expect(account.openedOn).toBe('2026-11-25');
    expect(loan.dueDates.slice(0, 3)).toEqual(['2027-01-25', '2027-02-25', '2027-03-25']);
    expect(loan.dueDates.at(-1)).toBe('2027-12-25');
    const atDisbursement = loanPosition(account, '2026-11-25');
    expect(atDisbursement.daysPastDue).toBe(0);
    expect(atDisbursement.instalments.every((line) => line.status === 'upcoming')).toBe(true);
    // No interest for the months before the borrower had the money: paying off on the day costs the principal.
    expect(atDisbursement.payoff).toMatchObject({ principalCentavos: 12_000_000, interestCentavos: 0, penaltiesCentavos: 0, totalCentavos: 12_000_000 });
    // Moving the date on a month finds nothing due and nothing to charge.
    expect(loan.closeThrough('2026-12-31')).toEqual([]);
    expect(loanPosition(loan.loan.account!, '2026-12-31')).toMatchObject({ bucket: 'current', daysPastDue: 0, outstanding: { penaltiesCentavos: 0 } });
  });

  it('when its disbursement is finished on a later day (a retry), then the schedule is still the one counted from the acceptance', () => {
    const [event] = loanDecider.decide(disburse('2026-11-27'), lateApproval.reduce(evolveLoan, initialLoanState()));
    if (event?.type !== 'LoanAccountOpened') throw new Error(`expected the account to open, got ${event?.type}`);
    expect(event.data.businessDate).toBe('2026-11-25');
    expect(event.data.schedule[0].dueDate).toBe('2027-01-25');
  });
});

describe('given an active loan', () => {
  it('when a repayment comes in, then one RepaymentReceived with its receipt number records it', () => {
    given(loanDecider, account)
      .when(record(INSTALMENT_CENTAVOS, '2026-03-15'))
      .then([received(INSTALMENT_CENTAVOS, '2026-03-15')]);
  });

  it('when the same repayment, or the same channel, reference and amount, comes again, then nothing more is recorded', () => {
    const history = [...account, received(INSTALMENT_CENTAVOS, '2026-03-15')];
    given(loanDecider, history).when(record(INSTALMENT_CENTAVOS, '2026-03-15')).then([]);
    given(loanDecider, history)
      .when(record(INSTALMENT_CENTAVOS, '2026-03-15', '2026-03-15', '9d1c7f0e-52a3-4b8e-9a61-3c5d7e9f1a21'))
      .then([]);
    // References compare without case, width, spaces or separators: "gc 001" is GC-001 written another way.
    given(loanDecider, history)
      .when(record(INSTALMENT_CENTAVOS, '2026-03-15', '2026-03-15', '9d1c7f0e-52a3-4b8e-9a61-3c5d7e9f1a21', 'gc 001'))
      .then([]);
  });

  it('when a reference the loan already has comes on another channel or for another amount, then it is refused unless an admin gives a reason', () => {
    const history = [...account, received(INSTALMENT_CENTAVOS, '2026-03-15')];
    const message = 'Reference GC-001 is already on this loan: receipt OR-2026-000001-001, ₱13,000.00 by GCash. If this is another payment, record it with a reason.';
    const otherId = '9d1c7f0e-52a3-4b8e-9a61-3c5d7e9f1a21';
    given(loanDecider, history)
      .when({ ...record(INSTALMENT_CENTAVOS, '2026-03-15', '2026-03-15', otherId, 'gc-001'), channel: 'maya' })
      .thenThrows('REFERENCE_ALREADY_RECORDED', message);
    given(loanDecider, history)
      .when(record(500, '2026-03-15', '2026-03-15', otherId, 'GC-001'))
      .thenThrows('REFERENCE_ALREADY_RECORDED', message);
    const confirmed = { ...record(500, '2026-03-15', '2026-03-15', otherId, 'gc-001'), duplicateReferenceReason: 'GCash reused the reference for a second transfer' };
    given(loanDecider, history)
      .when(confirmed)
      .then([
        {
          type: 'RepaymentReceived',
          data: {
            loanId: LOAN_ID,
            memberId: MEMBER_ID,
            repaymentId: otherId,
            receiptNumber: 'OR-2026-000001-002',
            amountCentavos: 500,
            channel: 'gcash',
            source: 'admin',
            reference: 'gc-001',
            duplicateReferenceReason: 'GCash reused the reference for a second transfer',
            valueDate: '2026-03-15',
            businessDate: '2026-03-15',
            receivedAt: now,
          },
        },
      ]);
  });

  it('when the amount is more than the payoff amount, then it is refused with the payoff named', () => {
    given(loanDecider, account).when(record(12_000_001, '2026-02-01')).thenThrows('AMOUNT_ABOVE_PAYOFF', 'The amount is more than the ₱120,000.00 that pays this loan off today.');
  });

  it('when the value date is after today or before disbursement, then it is refused', () => {
    given(loanDecider, account)
      .when(record(100, '2026-03-16', '2026-03-15'))
      .thenThrows('VALUE_DATE_IN_FUTURE');
    given(loanDecider, account)
      .when(record(100, '2026-01-14', '2026-03-15'))
      .thenThrows('VALUE_DATE_BEFORE_DISBURSEMENT');
  });

  it('when the payoff amount is paid, then the loan is paid off and completed, the interest not yet due forgiven', () => {
    const events = loanDecider.decide(record(12_000_000, '2026-02-01'), opened.state);
    expect(events.map((event) => event.type)).toEqual(['RepaymentReceived', 'LoanPaidOff']);
    expect(events[1]).toMatchObject({ data: { repaymentId, valueDate: '2026-02-01', interestForgivenCentavos: 3_600_000 } });
    given(loanDecider, [...account, ...events])
      .when(record(100, '2026-02-02', '2026-02-02', '9d1c7f0e-52a3-4b8e-9a61-3c5d7e9f1a22', 'GC-002'))
      .thenThrows('LOAN_NOT_ACTIVE');
  });

  it('when a repayment is reversed, then RepaymentReversed names it and the reason; reversing again records nothing', () => {
    const history = [...account, received(INSTALMENT_CENTAVOS, '2026-03-15')];
    const reverse = { type: 'ReverseRepayment', loanId: LOAN_ID, repaymentId, reason: 'Cheque bounced', businessDate: '2026-03-20', now } as const;
    const reversal: LoanEvent = { type: 'RepaymentReversed', data: { loanId: LOAN_ID, memberId: MEMBER_ID, repaymentId, reason: 'Cheque bounced', businessDate: '2026-03-20', reversedAt: now } };
    given(loanDecider, history).when(reverse).then([reversal]);
    given(loanDecider, [...history, reversal])
      .when(reverse)
      .then([]);
    given(loanDecider, account).when(reverse).thenThrows('REPAYMENT_NOT_FOUND');
  });

  it('when a waiver is asked for, then never more than the unpaid late charges', () => {
    const waive = (amountCentavos: number) => ({ type: 'WaivePenalty', loanId: LOAN_ID, waiverId: repaymentId, amountCentavos, reason: 'Hospital stay', businessDate: '2026-03-25', now }) as const;
    // 19–24 March charged: ₱52.00.
    given(loanDecider, account).when(waive(5_201)).thenThrows('WAIVER_ABOVE_PENALTIES', 'Only ₱52.00 of late charges are unpaid; a waiver cannot be more.');
    given(loanDecider, account)
      .when(waive(5_200))
      .then([{ type: 'PenaltyWaived', data: { loanId: LOAN_ID, memberId: MEMBER_ID, waiverId: repaymentId, amountCentavos: 5_200, reason: 'Hospital stay', businessDate: '2026-03-25', waivedAt: now } }]);
  });

  it('when reversals are under four eyes, then an admin alone is refused whenever the stream holds something to reverse, and a grant reverses only the amount it saw', () => {
    const history = [...account, received(INSTALMENT_CENTAVOS, '2026-03-15')];
    const reverse = (fourEyes: 'required' | { grantedAmountCentavos: number }) =>
      ({ type: 'ReverseRepayment', loanId: LOAN_ID, repaymentId, reason: 'Cheque bounced', fourEyes, businessDate: '2026-03-20', now }) as const;
    const reversal: LoanEvent = { type: 'RepaymentReversed', data: { loanId: LOAN_ID, memberId: MEMBER_ID, repaymentId, reason: 'Cheque bounced', businessDate: '2026-03-20', reversedAt: now } };
    // Judged on the stream: a repayment no read model has shown yet is still one to reverse.
    given(loanDecider, history).when(reverse('required')).thenThrows('APPROVAL_REQUIRED', 'Reversing a repayment needs a second admin.');
    given(loanDecider, history)
      .when(reverse({ grantedAmountCentavos: INSTALMENT_CENTAVOS }))
      .then([reversal]);
    given(loanDecider, history)
      .when(reverse({ grantedAmountCentavos: INSTALMENT_CENTAVOS - 1 }))
      .thenThrows('APPROVAL_TERMS_CHANGED', 'This repayment is not the one whose reversal was approved; ask for a new approval.');
    // Nothing left to do is not a reason to ask a second admin.
    given(loanDecider, [...history, reversal])
      .when(reverse('required'))
      .then([]);
    given(loanDecider, account).when(reverse('required')).thenThrows('REPAYMENT_NOT_FOUND');
  });

  it('when waivers are under four eyes, then an admin alone is refused a waiver the stream would allow, and one above the unpaid charges is refused for that', () => {
    const waive = (amountCentavos: number) => ({ type: 'WaivePenalty', loanId: LOAN_ID, waiverId: repaymentId, amountCentavos, reason: 'Hospital stay', fourEyes: 'required', businessDate: '2026-03-25', now }) as const;
    given(loanDecider, account).when(waive(5_200)).thenThrows('APPROVAL_REQUIRED', 'Waiving late charges needs a second admin.');
    given(loanDecider, account).when(waive(5_201)).thenThrows('WAIVER_ABOVE_PENALTIES');
  });

  it('when a debited wallet repayment is declined, then it can never be received afterwards', () => {
    const decline = { type: 'DeclineWalletRepayment', loanId: LOAN_ID, repaymentId, amountCentavos: 100, reason: 'above the payoff', now } as const;
    const declined: LoanEvent = { type: 'WalletRepaymentDeclined', data: { loanId: LOAN_ID, memberId: MEMBER_ID, repaymentId, amountCentavos: 100, reason: 'above the payoff', declinedAt: now } };
    given(loanDecider, account).when(decline).then([declined]);
    given(loanDecider, [...account, declined])
      .when(record(100, '2026-03-15'))
      .thenThrows('REPAYMENT_DECLINED');
    given(loanDecider, [...account, received(100, '2026-03-15')])
      .when(decline)
      .then([]);
  });

  it('when the day close runs for a date already closed, then nothing is recorded', () => {
    const loan = new ServicedLoan();
    expect(loan.closeThrough('2026-04-01').length).toBeGreaterThan(0);
    expect(loan.closeThrough('2026-04-01')).toEqual([]);
    expect(loan.closeThrough('2026-03-20')).toEqual([]);
  });

  it('when a reminder was sent for an instalment and reason, then it is not recorded twice', () => {
    const remind = {
      type: 'RecordReminder',
      loanId: LOAN_ID,
      instalment: 1,
      reason: 'before_due',
      dueDate: '2026-03-15',
      amountCentavos: INSTALMENT_CENTAVOS,
      notificationId: repaymentId,
      title: 't',
      message: 'm',
      now,
    } as const;
    const [sent] = loanDecider.decide(remind, opened.state);
    expect(sent.type).toBe('RepaymentReminderSent');
    given(loanDecider, [...account, sent])
      .when(remind)
      .then([]);
  });

  it('when a late instalment is paid back-dated to its due date, then its late charges are gone from the position', () => {
    const loan = new ServicedLoan();
    loan.closeThrough('2026-03-30');
    expect(loanPosition(loan.loan.account!, '2026-03-30').outstanding.penaltiesCentavos).toBeGreaterThan(0);
    loan.pay(INSTALMENT_CENTAVOS, '2026-03-15', '2026-03-30');
    expect(loanPosition(loan.loan.account!, '2026-03-30')).toMatchObject({ outstanding: { penaltiesCentavos: 0 }, daysPastDue: 0 });
  });
});

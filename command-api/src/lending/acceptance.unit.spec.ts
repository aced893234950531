import { businessDateOf, DEFAULT_LATE_CHARGE_SETTINGS } from '@honeylend/contracts';
import { describe, it } from 'vitest';
import { given } from '../platform/commands/testing/givenWhenThen.js';
import { LOAN_MESSAGES, loanDecider } from './decide.js';
import type { LoanEvent } from './loan.js';
import { LOAN_ID, MEMBER_ID } from './testing/servicedLoan.js';

/*
 * RA 3765 (Truth in Lending): after approval and before any money moves, the borrower accepts the
 * final Disclosure Statement; the acceptance records the SHA-256 of the exact text shown, when and
 * from where. An approval not accepted within 7 days lapses.
 */
const APPROVED_AT = '2026-01-20T02:00:00.000Z';
const SHOWN = 'a1'.repeat(32);
const OTHER = 'b2'.repeat(32);
const applied: LoanEvent = {
  type: 'LoanApplied',
  data: { loanId: LOAN_ID, memberId: MEMBER_ID, loanNumber: 'LN-2026-000001', amountCentavos: 12_000_000, termMonths: 12, monthlyRateBps: 250, purpose: 'Store stock', appliedAt: '2026-01-15T02:00:00.000Z' },
};
const approved: LoanEvent = { type: 'LoanStatusChanged', data: { loanId: LOAN_ID, memberId: MEMBER_ID, from: 'pending', to: 'approved', message: null, changedAt: APPROVED_AT } };
const accepted = (at = '2026-01-21T09:30:00.000Z'): LoanEvent => ({
  type: 'LoanTermsAccepted',
  data: { loanId: LOAN_ID, memberId: MEMBER_ID, statementHash: SHOWN, acceptedAt: at, ipAddress: '203.0.113.7', businessDate: businessDateOf(at) },
});
const accept = (now: string, statementHash = SHOWN, memberId = MEMBER_ID) =>
  ({ type: 'AcceptLoanTerms', loanId: LOAN_ID, memberId, statementHash, currentStatementHash: SHOWN, ipAddress: '203.0.113.7', businessDate: businessDateOf(now), now }) as const;
const lapse = (now: string) => ({ type: 'LapseApproval', loanId: LOAN_ID, now }) as const;
const open = { type: 'OpenLoanAccount', loanId: LOAN_ID, lateCharge: DEFAULT_LATE_CHARGE_SETTINGS, businessDate: '2026-01-21', now: '2026-01-21T09:30:00.000Z' } as const;
const SEVEN_DAYS_LATER = '2026-01-27T02:00:00.000Z';

describe('given an approved loan awaiting the borrower', () => {
  it('when the borrower accepts the statement they were shown, then the acceptance records its SHA-256, the time, the address and the business date its schedule counts from', () => {
    given(loanDecider, [applied, approved]).when(accept('2026-01-21T09:30:00.000Z')).then([accepted()]);
  });

  it('when disbursement is attempted before acceptance, then it is refused: no money moves', () => {
    given(loanDecider, [applied, approved]).when(open).thenThrows('TERMS_NOT_ACCEPTED', LOAN_MESSAGES.termsNotAccepted);
  });

  it('when the hash sent is not that of the statement as it reads now, then it is refused and nothing is recorded', () => {
    given(loanDecider, [applied, approved]).when(accept('2026-01-21T09:30:00.000Z', OTHER)).thenThrows('STATEMENT_CHANGED', LOAN_MESSAGES.statementChanged);
  });

  it('when another member accepts it, then the loan is not found for them', () => {
    given(loanDecider, [applied, approved])
      .when(accept('2026-01-21T09:30:00.000Z', SHOWN, '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f'))
      .thenThrows('LOAN_NOT_FOUND');
  });

  it('when the borrower accepts one millisecond before the 7 days end, then it counts; at the 7 days, it has lapsed', () => {
    given(loanDecider, [applied, approved])
      .when(accept('2026-01-27T01:59:59.999Z'))
      .then([accepted('2026-01-27T01:59:59.999Z')]);
    given(loanDecider, [applied, approved]).when(accept(SEVEN_DAYS_LATER)).thenThrows('APPROVAL_LAPSED', LOAN_MESSAGES.approvalLapsed);
  });

  it('when the lapse is checked before the 7 days end, then nothing happens; at the 7 days, the approval lapses', () => {
    given(loanDecider, [applied, approved]).when(lapse('2026-01-27T01:59:59.999Z')).then([]);
    given(loanDecider, [applied, approved])
      .when(lapse(SEVEN_DAYS_LATER))
      .then([{ type: 'LoanApprovalLapsed', data: { loanId: LOAN_ID, memberId: MEMBER_ID, approvedAt: APPROVED_AT, lapsedAt: SEVEN_DAYS_LATER } }]);
  });
});

describe('given an accepted loan', () => {
  it('when it is disbursed, then its account opens', () => {
    const [event] = loanDecider.decide(
      open,
      [applied, approved, accepted()].reduce((state, past) => loanDecider.evolve(state, past), loanDecider.initialState()),
    );
    if (event?.type !== 'LoanAccountOpened') throw new Error(`expected the account to open, got ${event?.type}`);
  });

  it('when the same statement is accepted again (a retry, a second tap), then nothing more is recorded', () => {
    given(loanDecider, [applied, approved, accepted()]).when(accept('2026-01-21T09:31:00.000Z')).then([]);
  });

  it('when another statement is sent after acceptance, then it is refused', () => {
    given(loanDecider, [applied, approved, accepted()]).when(accept('2026-01-21T09:31:00.000Z', OTHER)).thenThrows('LOAN_NOT_AWAITING_ACCEPTANCE');
  });

  it('when the 7 days pass after acceptance, then it never lapses', () => {
    given(loanDecider, [applied, approved, accepted()]).when(lapse('2026-03-01T00:00:00.000Z')).then([]);
  });
});

describe('given a lapsed approval', () => {
  const lapsed: LoanEvent = { type: 'LoanApprovalLapsed', data: { loanId: LOAN_ID, memberId: MEMBER_ID, approvedAt: APPROVED_AT, lapsedAt: SEVEN_DAYS_LATER } };

  it('when the borrower accepts after all, then it is refused as lapsed', () => {
    given(loanDecider, [applied, approved, lapsed]).when(accept('2026-01-28T00:00:00.000Z')).thenThrows('APPROVAL_LAPSED');
  });

  it('when the lapse is checked again, then nothing more is recorded', () => {
    given(loanDecider, [applied, approved, lapsed]).when(lapse('2026-02-01T00:00:00.000Z')).then([]);
  });

  it('when an admin approves it again or sets it lapsed by hand, then it is refused: a lapsed application is closed', () => {
    const change = (to: string) => ({ type: 'ChangeLoanStatus', loanId: LOAN_ID, to, message: null, customStatuses: [], now: '2026-02-01T00:00:00.000Z' }) as const;
    given(loanDecider, [applied, approved, lapsed]).when(change('approved')).thenThrows('ILLEGAL_STATUS_CHANGE');
    given(loanDecider, [applied]).when(change('lapsed')).thenThrows('ILLEGAL_STATUS_CHANGE', LOAN_MESSAGES.statusFollowsMoney);
  });

  it('when disbursement is attempted, then it is refused', () => {
    given(loanDecider, [applied, approved, lapsed]).when(open).thenThrows('LOAN_NOT_APPROVED');
  });
});

describe('given a pending application', () => {
  it('when the borrower tries to accept terms not yet approved, then it is refused', () => {
    given(loanDecider, [applied]).when(accept('2026-01-21T09:30:00.000Z')).thenThrows('LOAN_NOT_AWAITING_ACCEPTANCE');
  });
});

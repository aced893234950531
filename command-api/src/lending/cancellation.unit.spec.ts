import { describe, expect, it } from 'vitest';
import { closesApplication, isOpenApplication, mayApplyAgain, nextLoanStatuses } from '@honeylend/contracts';
import { given } from '../platform/commands/testing/givenWhenThen.js';
import { loanDecider } from './decide.js';
import type { LoanEvent } from './loan.js';
import { LOAN_ID, MEMBER_ID } from './testing/servicedLoan.js';

/*
 * Issue 17, item 5: a borrower may cancel their own application while it is still under review
 * (pending, account_issue or a custom review step); never once approved, and never another's.
 */
const applied: LoanEvent = {
  type: 'LoanApplied',
  data: { loanId: LOAN_ID, memberId: MEMBER_ID, loanNumber: 'LN-2026-000001', amountCentavos: 12_000_000, termMonths: 12, monthlyRateBps: 250, purpose: 'Store stock', appliedAt: '2026-01-15T02:00:00.000Z' },
};
const moved = (from: string, to: string): LoanEvent => ({ type: 'LoanStatusChanged', data: { loanId: LOAN_ID, memberId: MEMBER_ID, from, to, message: null, changedAt: '2026-01-16T02:00:00.000Z' } });
const NOW = '2026-01-17T03:00:00.000Z';
const cancel = (memberId = MEMBER_ID) => ({ type: 'CancelApplication', loanId: LOAN_ID, memberId, now: NOW }) as const;
const cancelled = (from: string): LoanEvent => ({ type: 'LoanApplicationCancelled', data: { loanId: LOAN_ID, memberId: MEMBER_ID, from, cancelledAt: NOW } });

describe('given an application under review', () => {
  it('when its borrower cancels it, then it is cancelled, from the status it had', () => {
    given(loanDecider, [applied])
      .when(cancel())
      .then([cancelled('pending')]);
    given(loanDecider, [applied, moved('pending', 'account_issue')])
      .when(cancel())
      .then([cancelled('account_issue')]);
    given(loanDecider, [applied, moved('pending', 'for_interview')])
      .when(cancel())
      .then([cancelled('for_interview')]);
  });

  it('when another member cancels it, then the loan is not found for them', () => {
    given(loanDecider, [applied]).when(cancel('0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f')).thenThrows('LOAN_NOT_FOUND');
  });

  it('when it is cancelled again (a retry, a second device), then nothing more is recorded', () => {
    given(loanDecider, [applied, cancelled('pending')])
      .when(cancel())
      .then([]);
  });
});

describe('given an application that left review', () => {
  it('when its borrower cancels an approved, denied or lapsed one, then it is refused with LOAN_NOT_CANCELLABLE', () => {
    for (const to of ['approved', 'denied'])
      given(loanDecider, [applied, moved('pending', to)])
        .when(cancel())
        .thenThrows('LOAN_NOT_CANCELLABLE');
    given(loanDecider, [applied, moved('pending', 'approved'), { type: 'LoanApprovalLapsed', data: { loanId: LOAN_ID, memberId: MEMBER_ID, approvedAt: '2026-01-16T02:00:00.000Z', lapsedAt: NOW } }])
      .when(cancel())
      .thenThrows('LOAN_NOT_CANCELLABLE');
  });

  it('when an admin asks for "cancelled", then it is refused: only the borrower cancels', () => {
    given(loanDecider, [applied]).when({ type: 'ChangeLoanStatus', loanId: LOAN_ID, to: 'cancelled', message: null, customStatuses: [], now: NOW }).thenThrows('ILLEGAL_STATUS_CHANGE');
    given(loanDecider, [applied, cancelled('pending')])
      .when({ type: 'ChangeLoanStatus', loanId: LOAN_ID, to: 'approved', message: null, customStatuses: [], now: NOW })
      .thenThrows('ILLEGAL_STATUS_CHANGE');
  });
});

describe('"may apply again": the one rule of the API and the borrower app', () => {
  it('a cancelled, denied, lapsed or completed application closes; anything else keeps the member from applying', () => {
    for (const status of ['cancelled', 'denied', 'lapsed', 'completed']) expect(closesApplication(status), status).toBe(true);
    expect(mayApplyAgain([])).toBe(true);
    expect(mayApplyAgain(['completed', 'deleted', 'cancelled'])).toBe(true);
    for (const status of ['pending', 'account_issue', 'approved', 'active', 'for_interview', 'open']) {
      expect(mayApplyAgain(['completed', status]), status).toBe(false);
      expect(isOpenApplication(status), status).toBe(true);
    }
    expect(nextLoanStatuses('cancelled', ['for_interview'])).toEqual([]);
  });
});

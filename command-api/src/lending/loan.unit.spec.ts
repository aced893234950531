import { BUILT_IN_LOAN_STATUSES, canChangeLoanStatus } from '@honeylend/contracts';
import { describe, expect, it } from 'vitest';
import { given } from '../platform/commands/testing/givenWhenThen.js';
import { defaultStatusMessage, UNDER_REVIEW_MESSAGE } from './borrowerMessages.js';
import { moneyRequestIn } from '../platform/text/moneyRequests.js';
import { loanDecider } from './decide.js';
import type { LoanEvent } from './loan.js';

const loanId = '3b7a1f52-9c4e-4d1a-8f0e-2a6b5c4d3e21';
const memberId = '5f0c6a52-3d8e-4f57-a7f4-0d6e4c1b9a01';
const now = '2026-11-22T08:00:00.000Z';

const applied: LoanEvent = {
  type: 'LoanApplied',
  data: { loanId, memberId, loanNumber: 'LN-2026-000001', amountCentavos: 8_000_000, termMonths: 12, monthlyRateBps: 250, purpose: 'Store stock', appliedAt: now },
};
const moved = (from: string, to: string, message: string | null = null): LoanEvent => ({ type: 'LoanStatusChanged', data: { loanId, memberId, from, to, message, changedAt: now } });
const change = (to: string, message: string | null = null, customStatuses: string[] = []) => ({ type: 'ChangeLoanStatus' as const, loanId, to, message, customStatuses, now });

describe('loan status machine', () => {
  it('approves, denies or flags a pending loan', () => {
    for (const to of ['approved', 'denied'])
      given(loanDecider, [applied])
        .when(change(to))
        .then([moved('pending', to)]);
    given(loanDecider, [applied])
      .when(change('account_issue', 'Upload a clearer selfie'))
      .then([moved('pending', 'account_issue', 'Upload a clearer selfie')]);
  });

  it('leaves an approved loan to the money: no admin move is left (disbursement makes it active, full repayment completed)', () => {
    for (const to of ['pending', 'denied', 'account_issue']) {
      given(loanDecider, [applied, moved('pending', 'approved')])
        .when(change(to, 'msg'))
        .thenThrows('ILLEGAL_STATUS_CHANGE', `This loan is approved; it cannot become ${to.replace('_', ' ')}.`);
    }
  });

  it('lets account_issue go back to pending or on to approved or denied', () => {
    const flagged = [applied, moved('pending', 'account_issue', 'Fix it')];
    for (const to of ['pending', 'approved', 'denied'])
      given(loanDecider, flagged)
        .when(change(to))
        .then([moved('account_issue', to)]);
    given(loanDecider, flagged).when(change('active')).thenThrows('ILLEGAL_STATUS_CHANGE');
  });

  it('keeps denied and completed final', () => {
    for (const to of ['pending', 'approved', 'account_issue', 'active']) {
      given(loanDecider, [applied, moved('pending', 'denied')])
        .when(change(to, 'msg'))
        .thenThrows('ILLEGAL_STATUS_CHANGE');
    }
  });

  it('requires a message for account_issue', () => {
    given(loanDecider, [applied]).when(change('account_issue')).thenThrows('MESSAGE_REQUIRED', 'Tell the borrower what to fix: account_issue needs a message.');
  });

  it('records nothing when the loan already has the status asked for (a retry, or a second admin agreeing)', () => {
    given(loanDecider, [applied, moved('pending', 'approved')])
      .when(change('approved'))
      .then([]);
  });

  it('moves a loan under review through custom statuses, never around approval', () => {
    const custom = ['for_interview', 'site_visit'];
    given(loanDecider, [applied])
      .when(change('for_interview', null, custom))
      .then([moved('pending', 'for_interview')]);
    const interviewing = [applied, moved('pending', 'for_interview')];
    given(loanDecider, interviewing)
      .when(change('site_visit', null, custom))
      .then([moved('for_interview', 'site_visit')]);
    for (const to of ['pending', 'approved', 'denied'])
      given(loanDecider, interviewing)
        .when(change(to, null, custom))
        .then([moved('for_interview', to)]);
    given(loanDecider, interviewing)
      .when(change('active', null, custom))
      .thenThrows('ILLEGAL_STATUS_CHANGE');
    given(loanDecider, [applied, moved('pending', 'approved')])
      .when(change('for_interview', null, custom))
      .thenThrows('ILLEGAL_STATUS_CHANGE');
    given(loanDecider, [applied])
      .when(change('unheard_of', null, custom))
      .thenThrows('UNKNOWN_LOAN_STATUS');
  });

  it('answers a loan that does not exist with 404', () => {
    given(loanDecider, []).when(change('approved')).thenThrows('LOAN_NOT_FOUND');
  });

  it('covers every built-in pair: only the drawn arrows are allowed', () => {
    const allowed = new Set(['pending>approved', 'pending>denied', 'pending>account_issue', 'account_issue>pending', 'account_issue>approved', 'account_issue>denied']);
    for (const from of BUILT_IN_LOAN_STATUSES) {
      for (const to of BUILT_IN_LOAN_STATUSES) expect(canChangeLoanStatus(from, to, []), `${from}>${to}`).toBe(allowed.has(`${from}>${to}`));
    }
  });
});

describe('loan terms and deletion', () => {
  it('changes the amount and term of a pending loan, recording what they were', () => {
    given(loanDecider, [applied])
      .when({ type: 'ChangeLoanTerms', loanId, amountCentavos: 15_000_000, termMonths: 60, now })
      .then([
        {
          type: 'LoanTermsChanged',
          data: { loanId, memberId, amountCentavos: 15_000_000, termMonths: 60, previousAmountCentavos: 8_000_000, previousTermMonths: 12, changedAt: now },
        },
      ]);
    given(loanDecider, [applied]).when({ type: 'ChangeLoanTerms', loanId, termMonths: 12, now }).then([]);
  });

  it('refuses new terms once the loan left pending', () => {
    given(loanDecider, [applied, moved('pending', 'approved')])
      .when({ type: 'ChangeLoanTerms', loanId, termMonths: 24, now })
      .thenThrows('LOAN_NOT_PENDING', 'The amount and term can only change while the loan is pending; this loan is approved.');
  });

  it('deletes only pending or denied loans, once', () => {
    const deleted: LoanEvent = { type: 'LoanDeleted', data: { loanId, memberId, status: 'denied', deletedAt: now } };
    given(loanDecider, [applied, moved('pending', 'denied')])
      .when({ type: 'DeleteLoan', loanId, now })
      .then([deleted]);
    given(loanDecider, [applied, moved('pending', 'denied'), deleted])
      .when({ type: 'DeleteLoan', loanId, now })
      .then([]);
    given(loanDecider, [applied, moved('pending', 'denied'), deleted])
      .when(change('pending'))
      .thenThrows('LOAN_NOT_FOUND');
    given(loanDecider, [applied, moved('pending', 'account_issue', 'x')])
      .when({ type: 'DeleteLoan', loanId, now })
      .thenThrows('LOAN_NOT_DELETABLE');
  });
});

describe('what a status tells the borrower', () => {
  it('recognises requests for money', () => {
    for (const text of [
      'Pay a release fee of 1500',
      'Please deposit 2,000 first',
      'Send the amount via GCash',
      'Transfer funds to unlock',
      'Processing fees apply',
      'Cash-in 500 to continue',
      'Pay 1,500 to approve your loan',
      'Pay your instalment to GCash 0917 123 4567',
      'Please make the payment to my personal account',
      'Payment before release is required',
      'Your funds are locked; unlock them for ₱500',
    ]) {
      expect(moneyRequestIn(text), text).not.toBeNull();
    }
    for (const text of [
      'Please upload a clearer selfie',
      'Your ID has expired; upload a valid one',
      'Your repayment schedule is in the app',
      'We approved your loan of 80,000 pesos',
      'Your instalment 3 of ₱13,000.00 is due on 15 May 2026. Pay it in the app from your wallet.',
      'Your payment of ₱13,000 was received, thank you.',
      'Your instalment is 5 days overdue; please pay it by GCash or Maya quoting your loan number LN-2026-000123.',
    ]) {
      expect(moneyRequestIn(text), text).toBeNull();
    }
  });

  it('never asks for money in its own default messages, and uses the spec wording for pending', () => {
    expect(defaultStatusMessage('pending', 'LN-2026-000001')).toBe(UNDER_REVIEW_MESSAGE);
    for (const status of [...BUILT_IN_LOAN_STATUSES, 'for_interview']) expect(moneyRequestIn(defaultStatusMessage(status, 'LN-2026-000001')), status).toBeNull();
  });
});

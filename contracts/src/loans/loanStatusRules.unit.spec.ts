import { describe, expect, it } from 'vitest';
import { BUILT_IN_LOAN_STATUSES, closesApplication, isBuiltInLoanStatus, isUnderReview } from './applicationRules.js';
import { canChangeLoanStatus, isDeletable, nextLoanStatuses } from './loanStatusRules.js';

const customStatuses = ['documents_review', 'site_visit'];

describe('given a pending loan', () => {
  it('when an admin opens the status dialog, then approval, denial, an account issue and every custom review step are offered', () => {
    expect(nextLoanStatuses('pending', customStatuses)).toEqual(['approved', 'denied', 'account_issue', 'documents_review', 'site_visit']);
  });

  it('when it is set to active or completed, then the move is refused: approval cannot be skipped', () => {
    expect(canChangeLoanStatus('pending', 'active', customStatuses)).toBe(false);
    expect(canChangeLoanStatus('pending', 'completed', customStatuses)).toBe(false);
  });

  it('when it is set to a status no one defined, then the move is refused', () => {
    expect(canChangeLoanStatus('pending', 'unheard_of', customStatuses)).toBe(false);
  });
});

describe('given a loan with an account issue', () => {
  it('when the borrower fixed it, then it may go back to pending, be approved, be denied or enter a review step', () => {
    expect(nextLoanStatuses('account_issue', ['documents_review'])).toEqual(['pending', 'approved', 'denied', 'documents_review']);
  });
});

describe('given a loan in a custom review step', () => {
  it('when it moves on, then it leaves review as a pending loan does, or enters another custom step but not its own', () => {
    expect(nextLoanStatuses('documents_review', customStatuses)).toEqual(['pending', 'approved', 'denied', 'account_issue', 'site_visit']);
    expect(canChangeLoanStatus('documents_review', 'documents_review', customStatuses)).toBe(false);
    expect(canChangeLoanStatus('documents_review', 'active', customStatuses)).toBe(false);
  });
});

describe('given a loan past review', () => {
  it('when approved or active, then no admin move is left: disbursement makes it active, full repayment completed', () => {
    expect(nextLoanStatuses('approved', customStatuses)).toEqual([]);
    expect(nextLoanStatuses('active', customStatuses)).toEqual([]);
  });

  it('when denied, completed, lapsed (its Disclosure Statement not accepted in time) or cancelled by the borrower, then nothing follows and the application is closed', () => {
    for (const status of ['denied', 'completed', 'lapsed', 'cancelled']) {
      expect(nextLoanStatuses(status, customStatuses), status).toEqual([]);
      expect(closesApplication(status), status).toBe(true);
    }
    expect(BUILT_IN_LOAN_STATUSES.filter(closesApplication)).toEqual(['denied', 'completed', 'lapsed', 'cancelled']);
  });
});

describe('given every pair of built-in statuses', () => {
  it('when each move is asked for, then exactly the drawn arrows are allowed', () => {
    const arrows = ['pending>approved', 'pending>denied', 'pending>account_issue', 'account_issue>pending', 'account_issue>approved', 'account_issue>denied'];
    const allowed = BUILT_IN_LOAN_STATUSES.flatMap((from) => BUILT_IN_LOAN_STATUSES.filter((to) => canChangeLoanStatus(from, to, customStatuses)).map((to) => `${from}>${to}`));
    expect(allowed.sort()).toEqual([...arrows].sort());
  });
});

describe('given the statuses of the review', () => {
  it('when asked whether a loan is still reviewed, then pending, account_issue and custom steps are, the rest are not', () => {
    expect(['pending', 'account_issue', 'documents_review'].every(isUnderReview)).toBe(true);
    expect(['approved', 'active', 'denied', 'completed'].some(isUnderReview)).toBe(false);
    expect(isBuiltInLoanStatus('documents_review')).toBe(false);
  });

  it('when an admin deletes an application, then only pending and denied ones may go', () => {
    expect([...BUILT_IN_LOAN_STATUSES, 'documents_review'].filter(isDeletable)).toEqual(['pending', 'denied']);
  });
});

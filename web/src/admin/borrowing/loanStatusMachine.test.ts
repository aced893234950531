import { describe, expect, it } from 'vitest';
import { isDeletable, nextLoanStatuses } from './loanStatusMachine';

describe('the statuses the status dialog offers', () => {
  it('offers approval, denial and an account issue for a pending loan, plus the custom review steps', () => {
    expect(nextLoanStatuses('pending', ['documents_review'])).toEqual(['approved', 'denied', 'account_issue', 'documents_review']);
  });

  it('moves an approved loan only forward, and offers nothing after denial or completion', () => {
    expect(nextLoanStatuses('approved', ['documents_review'])).toEqual(['active']);
    expect(nextLoanStatuses('active', [])).toEqual(['completed']);
    expect(nextLoanStatuses('denied', ['documents_review'])).toEqual([]);
    expect(nextLoanStatuses('completed', [])).toEqual([]);
  });

  it('lets a loan in a custom step leave review as a pending loan does, or go to another custom step', () => {
    expect(nextLoanStatuses('documents_review', ['documents_review', 'site_visit'])).toEqual(['pending', 'approved', 'denied', 'account_issue', 'site_visit']);
  });

  it('allows deleting only pending and denied applications', () => {
    expect(['pending', 'denied', 'approved', 'active', 'completed', 'account_issue'].filter(isDeletable)).toEqual(['pending', 'denied']);
  });
});

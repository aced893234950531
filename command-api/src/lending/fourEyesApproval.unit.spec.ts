import { describe, it } from 'vitest';
import { given } from '../platform/commands/testing/givenWhenThen.js';
import { loanDecider } from './decide.js';
import type { LoanEvent } from './loan.js';

/**
 * Four eyes on a loan approval (design §11) is decided on the loan's stream: an admin alone may not
 * approve terms at or above the threshold, whatever the read model showed them, and a second admin's
 * grant approves the terms it was asked for and no others.
 */
const loanId = '3b7a1f52-9c4e-4d1a-8f0e-2a6b5c4d3e21';
const memberId = '5f0c6a52-3d8e-4f57-a7f4-0d6e4c1b9a01';
const now = '2026-11-22T08:00:00.000Z';
const THRESHOLD = 50_000_000;

const applied: LoanEvent = {
  type: 'LoanApplied',
  data: { loanId, memberId, loanNumber: 'LN-2026-000001', amountCentavos: 10_000_000, termMonths: 12, monthlyRateBps: 250, purpose: 'Store stock', appliedAt: now },
};
const raisedTo = (amountCentavos: number, termMonths = 60): LoanEvent => ({
  type: 'LoanTermsChanged',
  data: { loanId, memberId, amountCentavos, termMonths, previousAmountCentavos: 10_000_000, previousTermMonths: 12, changedAt: now },
});
const approved: LoanEvent = { type: 'LoanStatusChanged', data: { loanId, memberId, from: 'pending', to: 'approved', message: null, changedAt: now } };
const approve = (fourEyes: { thresholdCentavos: number } | { grantedTerms: { amountCentavos: number; termMonths: number; monthlyRateBps: number } }) => ({
  type: 'ChangeLoanStatus' as const,
  loanId,
  to: 'approved',
  message: null,
  customStatuses: [],
  fourEyes,
  now,
});

describe('four eyes on a loan approval, decided on the stream', () => {
  it('lets one admin approve a loan below the threshold', () => {
    given(loanDecider, [applied])
      .when(approve({ thresholdCentavos: THRESHOLD }))
      .then([approved]);
  });

  it('refuses one admin a loan whose terms reached the threshold, though the admin looked before the edit', () => {
    given(loanDecider, [applied, raisedTo(400_000_000)])
      .when(approve({ thresholdCentavos: THRESHOLD }))
      .thenThrows('APPROVAL_REQUIRED', 'Approving a loan of this amount needs a second admin.');
    given(loanDecider, [applied, raisedTo(THRESHOLD, 12)])
      .when(approve({ thresholdCentavos: THRESHOLD }))
      .thenThrows('APPROVAL_REQUIRED', 'Approving a loan of this amount needs a second admin.');
  });

  it('carries out a grant while the loan has the terms it was asked for', () => {
    given(loanDecider, [applied, raisedTo(60_000_000, 24)])
      .when(approve({ grantedTerms: { amountCentavos: 60_000_000, termMonths: 24, monthlyRateBps: 250 } }))
      .then([approved]);
  });

  it('refuses a grant once the amount or the term drifted from what the second admin saw', () => {
    const message = "The loan's terms changed after this approval was requested; ask for a new approval of the terms it has now.";
    given(loanDecider, [applied, raisedTo(60_000_000, 24), raisedTo(400_000_000, 60)])
      .when(approve({ grantedTerms: { amountCentavos: 60_000_000, termMonths: 24, monthlyRateBps: 250 } }))
      .thenThrows('APPROVAL_TERMS_CHANGED', message);
    given(loanDecider, [applied, raisedTo(60_000_000, 60)])
      .when(approve({ grantedTerms: { amountCentavos: 60_000_000, termMonths: 24, monthlyRateBps: 250 } }))
      .thenThrows('APPROVAL_TERMS_CHANGED', message);
  });
});

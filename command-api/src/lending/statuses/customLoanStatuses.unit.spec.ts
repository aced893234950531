import { describe, expect, it } from 'vitest';
import { given } from '../../platform/commands/testing/givenWhenThen.js';
import { customLoanStatusesDecider, normaliseLoanStatus } from './customLoanStatuses.js';

const now = '2026-11-22T08:00:00.000Z';
const defined = (status: string) => ({ type: 'LoanStatusDefined' as const, data: { status, definedAt: now } });

describe('custom loan statuses', () => {
  it('are lowercased with words joined by underscores', () => {
    expect(normaliseLoanStatus('  For Interview ')).toBe('for_interview');
    expect(normaliseLoanStatus('site-visit')).toBe('site_visit');
  });

  it('are defined once, never over a built-in status', () => {
    given(customLoanStatusesDecider, [])
      .when({ type: 'DefineLoanStatus', status: 'for_interview', now })
      .then([defined('for_interview')]);
    given(customLoanStatusesDecider, [defined('for_interview')])
      .when({ type: 'DefineLoanStatus', status: 'for_interview', now })
      .thenThrows('LOAN_STATUS_EXISTS');
    given(customLoanStatusesDecider, []).when({ type: 'DefineLoanStatus', status: 'approved', now }).thenThrows('LOAN_STATUS_EXISTS');
  });

  it('are removed when they exist; built-in ones cannot be', () => {
    given(customLoanStatusesDecider, [defined('for_interview')])
      .when({ type: 'RemoveLoanStatus', status: 'for_interview', now })
      .then([{ type: 'LoanStatusRemoved', data: { status: 'for_interview', removedAt: now } }]);
    given(customLoanStatusesDecider, []).when({ type: 'RemoveLoanStatus', status: 'for_interview', now }).thenThrows('LOAN_STATUS_NOT_FOUND');
    given(customLoanStatusesDecider, []).when({ type: 'RemoveLoanStatus', status: 'pending', now }).thenThrows('BUILT_IN_LOAN_STATUS');
  });
});

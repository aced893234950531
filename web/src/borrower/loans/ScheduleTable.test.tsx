import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { loanAnswer } from '../../testing/http';
import { openedAccount, withRepayment } from '../../testing/loanAccounts';
import { ScheduleTable } from './ScheduleTable';

/**
 * A paid-off schedule says what was really paid on each instalment and what the payoff did not
 * charge, never the full amount of an instalment whose interest was waived.
 */
describe('the schedule of a loan paid off early', () => {
  it('shows what each instalment was paid and the interest the payoff waived, and totals both', () => {
    // ₱30,000 over 3 months at 2.5 %: instalments of ₱10,750 (₱10,000 principal, ₱750 interest).
    // On the first due date the payoff is instalment 1 in full and the other two instalments' principal.
    const account = withRepayment(openedAccount(30_000_00, 3, '2026-01-15'), {
      repaymentId: '9d1c7f0e-52a3-4b8e-9a61-3c5d7e9f1a20',
      receiptNumber: 'OR-2026-000123-001',
      amountCentavos: 30_750_00,
      valueDate: '2026-03-15',
    });
    render(<ScheduleTable schedule={loanAnswer({ status: 'completed', account }).schedule} />);
    const table = screen.getByRole('table');
    const cells = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(cells[0]).toBe('1Mar 15, 2026₱10,750.00Paid');
    expect(cells[1]).toBe('2Apr 15, 2026₱10,750.00paid ₱10,000.00interest waived at payoff ₱750.00Paid');
    expect(cells[2]).toBe('3May 15, 2026₱10,750.00paid ₱10,000.00interest waived at payoff ₱750.00Paid');
    expect(cells[3]).toBe('Total₱32,250.00paid ₱30,750.00 · interest waived ₱1,500.00');
  });
});

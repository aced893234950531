import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { evolveLoanAccount } from '@honeylend/contracts';
import { loanAnswer } from '../../testing/http';
import { FIXTURE_LOAN_ID, FIXTURE_MEMBER_ID, openedAccount, withRepayment } from '../../testing/loanAccounts';
import { PaymentScheduleDialog } from './PaymentScheduleDialog';

function rows() {
  const table = screen.getByRole('table');
  return within(table)
    .getAllByRole('row')
    .slice(1, -1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
}

describe('the Payment Schedule dialog (spec §2/§9)', () => {
  it('lists one upcoming row per month before disbursement, the first due two months after the money would reach the wallet today', () => {
    // ₱100,000 at 2.5% a month over 12 months: ₱130,000 in 12 payments of ₱10,833.33, the last ₱10,833.37.
    // Applied for in September, still awaiting acceptance on 15 January: the schedule counts from 15 January, not from September.
    render(<PaymentScheduleDialog loan={loanAnswer({ status: 'approved', createdAt: '2025-09-02T02:00:00.000Z' }, {}, '2026-01-15')} open onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Payment Schedule' });
    expect(dialog.textContent).toContain('Loan LN-2026-000123 · 12 monthly payments');

    const shown = rows();
    expect(shown).toHaveLength(12);
    expect(shown[0]).toEqual(['1', 'Mar 15, 2026', '₱10,833.33', 'Upcoming']);
    expect(shown[1]).toEqual(['2', 'Apr 15, 2026', '₱10,833.33', 'Upcoming']);
    expect(shown[11]).toEqual(['12', 'Feb 15, 2027', '₱10,833.37', 'Upcoming']);
    expect(within(screen.getByRole('table')).getAllByRole('row').at(-1)?.textContent).toContain('₱130,000.00');
    // Worded as the Disclosure Statement words it (issue 37 item 13: one wording, from one source).
    expect(dialog.textContent).toContain('Late payment charge: 2.00% a month of the overdue instalment, counted daily from the 4th day after its due date.');
    // The two-month gap before the first payment is explained, counted from the day the money reaches the wallet.
    expect(screen.getByTestId('first-due-note').textContent).toContain('accepted today (Jan 15, 2026), it is due Mar 15, 2026');
  });

  it('shows the real statuses of an active loan: paid, overdue with its late charge and days, upcoming', () => {
    let account = withRepayment(openedAccount(100_000_00, 12, '2026-01-15'), {
      repaymentId: '9d1c7f0e-52a3-4b8e-9a61-3c5d7e9f1a20',
      receiptNumber: 'OR-2026-000123-001',
      amountCentavos: 1_083_333,
      valueDate: '2026-03-15',
      reference: 'r',
    });
    account = evolveLoanAccount(account, { type: 'LoanDayClosed', data: { loanId: FIXTURE_LOAN_ID, memberId: FIXTURE_MEMBER_ID, daysPastDue: 10, businessDate: '2026-04-25' } })!;
    render(<PaymentScheduleDialog loan={loanAnswer({ status: 'active', account })} open onClose={() => undefined} />);
    expect(screen.getByTestId('first-due-note').textContent).toBe('The money reached your wallet on Jan 15, 2026; the first payment is due Mar 15, 2026, then one each month.');
    const shown = rows();
    // Instalment 2 is 10 days late: 6 days charged after the 3 grace days, ₱10,833.33 × 2 % / 30 × 6 = ₱43.33.
    expect(shown[0]).toEqual(['1', 'Mar 15, 2026', '₱10,833.33', 'Paid']);
    expect(shown[1]).toEqual(['2', 'Apr 15, 2026', '₱10,833.33+ late charge ₱43.33', 'Overdue 10 d']);
    expect(shown[2]).toEqual(['3', 'May 15, 2026', '₱10,833.33', 'Upcoming']);
  });

  it('keeps the Manila calendar at month ends', () => {
    // Disbursed (today) on 31 January in Manila: due dates fall on the last day of shorter months.
    render(<PaymentScheduleDialog loan={loanAnswer({ createdAt: '2026-01-30T17:00:00.000Z', termMonths: 6 }, {}, '2026-01-31')} open onClose={() => undefined} />);
    expect(rows().map((row) => row[1])).toEqual(['Mar 31, 2026', 'Apr 30, 2026', 'May 31, 2026', 'Jun 30, 2026', 'Jul 31, 2026', 'Aug 31, 2026']);
  });

  it('closes from Close and from Escape', () => {
    const onClose = vi.fn();
    render(<PaymentScheduleDialog loan={loanAnswer()} open onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Payment Schedule' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('draws nothing while closed', () => {
    render(<PaymentScheduleDialog loan={loanAnswer()} open={false} onClose={() => undefined} />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

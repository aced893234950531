import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { loanAnswer } from '../../testing/http';
import { PaymentScheduleDialog } from './PaymentScheduleDialog';

function rows() {
  const table = screen.getByRole('table');
  return within(table)
    .getAllByRole('row')
    .slice(1, -1)
    .map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
}

describe('the Payment Schedule dialog (spec §2/§9)', () => {
  it('lists one pending row per month, the first due two months after the loan was made', () => {
    // ₱100,000 at 2.5% a month over 12 months: ₱130,000 in 12 payments of ₱10,833.33, the last ₱10,833.37.
    render(<PaymentScheduleDialog loan={loanAnswer({ createdAt: '2026-01-15T02:00:00.000Z' })} open onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Payment Schedule' });
    expect(dialog.textContent).toContain('Loan LN-2026-000123 · 12 monthly payments');

    const shown = rows();
    expect(shown).toHaveLength(12);
    expect(shown[0]).toEqual(['1', 'Mar 15, 2026', '₱10,833.33', 'Pending']);
    expect(shown[1]).toEqual(['2', 'Apr 15, 2026', '₱10,833.33', 'Pending']);
    expect(shown[11]).toEqual(['12', 'Feb 15, 2027', '₱10,833.37', 'Pending']);
    expect(within(screen.getByRole('table')).getAllByRole('row').at(-1)?.textContent).toContain('₱130,000.00');
    expect(dialog.textContent).toContain('Late charge: 2% per month on any overdue amount.');
  });

  it('keeps the Manila calendar at month ends', () => {
    // Created 31 January in Manila: due dates fall on the last day of shorter months.
    render(<PaymentScheduleDialog loan={loanAnswer({ createdAt: '2026-01-30T17:00:00.000Z', termMonths: 6 })} open onClose={() => undefined} />);
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

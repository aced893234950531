import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { accountOpening, DEFAULT_LATE_CHARGE_SETTINGS, evolveLoanAccount, type LoanDetailAnswer } from '@honeylend/contracts';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, loanAnswer, mockFetch, requestOf } from '../../testing/http';
import { PayDialog } from './PayDialog';

const loanId = '0b5f6c7d-2a41-4e8e-9c1d-7a3f2b1c0d9e';
const memberId = '6f1c2a7e-0d59-4c2f-9a55-1f7d3c1b2e11';

/** ₱100,000 over 12 months (₱2,500 interest a month), disbursed 15 January 2026 (due on the 15th); today is 25 April: instalment 1 is 41 days late, instalment 2 ten days. */
function lateLoan(): LoanDetailAnswer {
  const opened = accountOpening({ loanId, memberId, principalCentavos: 100_000_00, monthlyRateBps: 250, termMonths: 12 }, DEFAULT_LATE_CHARGE_SETTINGS, '2026-01-15', '2026-01-15T02:00:00.000Z');
  let account = evolveLoanAccount(null, { type: 'LoanAccountOpened', data: opened })!;
  account = evolveLoanAccount(account, { type: 'LoanDayClosed', data: { loanId, memberId, daysPastDue: 41, businessDate: '2026-04-25' } })!;
  return { ...loanAnswer({ status: 'active', account }), account, businessDate: '2026-04-25' };
}

describe('the Pay dialog', () => {
  it('offers the next instalment, everything overdue and the payoff, each with its amount from the fold', () => {
    render(<PayDialog loan={lateLoan()} balance={200_000} open onClose={() => undefined} onPaid={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Pay from wallet' });
    // Instalment 1: ₱10,833.33 and 37 days charged (19 March – 24 April, after 3 grace days): 1,083,333 × 37 × 2 % / 30 = ₱267.22.
    expect(
      within(dialog)
        .getByRole('radio', { name: /Next instalment/ })
        .closest('label')!.textContent,
    ).toContain('₱11,100.55');
    // Instalment 2 too: 6 days charged (19–24 April) = ₱43.33.
    expect(
      within(dialog)
        .getByRole('radio', { name: /All overdue/ })
        .closest('label')!.textContent,
    ).toContain('₱21,977.21');
  });

  it('confirms the allocation before paying — late charges, then interest, then principal, oldest first — then pays once with one key', async () => {
    const fetchMock = mockFetch(jsonResponse({ id: 'c3d4e5f6-0000-4000-8000-000000000009', receiptNumber: 'OR-2026-000123-001', amount: 11_000, valueDate: '2026-04-25', allocation: [] }, { status: 201 }));
    const onPaid = vi.fn();
    render(<PayDialog loan={lateLoan()} balance={200_000} open onClose={() => undefined} onPaid={onPaid} />);
    fireEvent.click(screen.getByRole('radio', { name: /Another amount/ }));
    // Typed with ₱ and a thousands separator (issue 22, item 6).
    fireEvent.change(screen.getByLabelText('Amount (₱)'), { target: { value: '₱11,000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Review payment' }));
    const confirm = screen.getByRole('dialog', { name: 'Confirm payment' });
    expect(within(confirm).getByTestId('allocation-1').textContent).toBe('Instalment 1late charge ₱267.22 · interest ₱2,500.00 · principal ₱8,232.78');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Pay ₱11,000.00' }));
    await waitFor(() => expect(onPaid).toHaveBeenCalledTimes(1));
    const request = requestOf(fetchMock);
    expect(request.url).toBe(`/api/loans/${loanId}/repayments`);
    expect(request.body).toEqual({ amount: 11000 });
    expect(request.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(screen.getByRole('dialog', { name: 'Payment received' }).textContent).toContain('Receipt OR-2026-000123-001');
  });

  it('refuses more than the wallet holds before asking the server', () => {
    const fetchMock = mockFetch();
    render(<PayDialog loan={lateLoan()} balance={5_000} open onClose={() => undefined} onPaid={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Review payment' }));
    expect(screen.getByRole('alert').textContent).toBe('Your wallet holds ₱5,000.00; a payment from it cannot be more.');
    expect(fetchMock).not.toHaveBeenCalled();
  });
  it('a payment whose answer is lost is looked for again with the same key, and shows the one receipt the server kept', async () => {
    const receipt = { id: 'c3d4e5f6-0000-4000-8000-000000000010', receiptNumber: 'OR-2026-000123-002', amount: 11_000, valueDate: '2026-04-25', allocation: [] };
    const fetchMock = mockFetch(new TypeError('Failed to fetch'), jsonResponse(receipt, { status: 201 }));
    const onPaid = vi.fn();
    render(<PayDialog loan={lateLoan()} balance={200_000} open onClose={() => undefined} onPaid={onPaid} />);
    fireEvent.click(screen.getByRole('radio', { name: /Another amount/ }));
    fireEvent.change(screen.getByLabelText('Amount (₱)'), { target: { value: '11000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Review payment' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Confirm payment' })).getByRole('button', { name: 'Pay ₱11,000.00' }));
    await waitFor(() => expect(onPaid).toHaveBeenCalledTimes(1));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(requestOf(fetchMock, 1).headers.get('Idempotency-Key')).toBe(requestOf(fetchMock, 0).headers.get('Idempotency-Key'));
    expect(screen.getByRole('dialog', { name: 'Payment received' }).textContent).toContain('Receipt OR-2026-000123-002');
  });

  it('with no answer at all, says the payment is not confirmed (never that it failed) and Pay again reuses the same key', async () => {
    const receipt = { id: 'c3d4e5f6-0000-4000-8000-000000000011', receiptNumber: 'OR-2026-000123-003', amount: 11_000, valueDate: '2026-04-25', allocation: [] };
    const fetchMock = mockFetch(new TypeError('Failed to fetch'), new TypeError('Failed to fetch'), jsonResponse(receipt, { status: 201 }));
    const onPaid = vi.fn();
    render(<PayDialog loan={lateLoan()} balance={200_000} open onClose={() => undefined} onPaid={onPaid} />);
    fireEvent.click(screen.getByRole('radio', { name: /Another amount/ }));
    fireEvent.change(screen.getByLabelText('Amount (₱)'), { target: { value: '11000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Review payment' }));
    const confirm = screen.getByRole('dialog', { name: 'Confirm payment' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Pay ₱11,000.00' }));
    await waitFor(() => expect(within(confirm).getByRole('alert').textContent).toBe('No internet — we could not confirm the payment of ₱11,000.00. Pay again when you are back online: it will not be taken twice.'));
    expect(onPaid).not.toHaveBeenCalled();
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Confirm payment' })).getByRole('button', { name: 'Pay ₱11,000.00' }));
    await waitFor(() => expect(onPaid).toHaveBeenCalledTimes(1));
    const keys = [0, 1, 2].map((call) => requestOf(fetchMock, call).headers.get('Idempotency-Key'));
    expect(new Set(keys).size).toBe(1);
  });
});

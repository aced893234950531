import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fallbackRatesAnswer, jsonResponse, memberAnswer, routeFetch } from '../../testing/http';
import { renderApp } from '../../testing/renderApp';
import { useLoans } from '../stores/loans';
import { useSession } from '../stores/session';
import { roundedAmount } from './ApplyLoanDialog';

/** A member whose loans are known (none): the dashboard offers Quick loan only once they are. */
async function openApplyDialog(monthlyRateBps = 250) {
  localStorage.setItem('token', 'jwt-abc');
  useSession.setState({ user: memberAnswer({ verified: true, phoneVerified: true, personalInfoComplete: true, documentsComplete: true }), loading: false });
  useLoans.setState({ items: [], status: 'ready' });
  routeFetch({
    'GET /api/rates': () => jsonResponse(fallbackRatesAnswer()),
    'GET /api/loans/user': () => jsonResponse([]),
    'GET /api/loans/terms': () => jsonResponse({ monthlyRateBps, monthlyRatePercent: monthlyRateBps / 100 }),
  });
  renderApp('/loan-app');
  fireEvent.click(await screen.findByRole('button', { name: 'Quick loan' }, { timeout: 10_000 }));
  return screen.findByRole('dialog', { name: 'Apply for a Loan' });
}

describe('Apply for a Loan (issue 22, items 4 and 5)', () => {
  it('shows the total to repay, the finance charge and the effective annual rate before Submit, as the contract will', async () => {
    const dialog = await openApplyDialog();
    fireEvent.change(within(dialog).getByLabelText(/^Amount/), { target: { value: '100000' } });
    fireEvent.change(within(dialog).getByLabelText(/^Term/), { target: { value: '12' } });
    const cost = await within(dialog).findByRole('region', { name: 'What this loan costs' });
    // ₱100,000 over 12 months at 2.5% a month, flat: 12 × ₱10,833.33 (the last absorbs the rounding).
    expect(cost.textContent).toContain('₱10,833.33');
    expect(within(cost).getByTestId('estimate-total').textContent).toBe('₱130,000.00');
    expect(within(cost).getByTestId('estimate-finance-charge').textContent).toBe('₱30,000.00');
    expect(within(cost).getByTestId('estimate-effective-rate').textContent).toBe('54.05%');
    // The first payment is counted as the server counts it: two months after the money reaches the wallet.
    expect(within(cost).getByTestId('estimate-first-payment').textContent).toBe(
      "First payment: two months after the money reaches your wallet (the day you accept the approved loan's Disclosure Statement), then monthly.",
    );

    fireEvent.click(within(dialog).getByRole('button', { name: '24 months' }));
    expect(within(cost).getByTestId('estimate-total').textContent).toBe('₱160,000.00');
    expect(within(cost).getByTestId('estimate-finance-charge').textContent).toBe('₱60,000.00');
  });

  it('keeps the headline on what was typed, says what is wrong as it is typed, and rounds to ₱10,000 when the field is left', async () => {
    const dialog = await openApplyDialog();
    const amount = within(dialog).getByLabelText<HTMLInputElement>(/^Amount/);
    const headline = dialog.querySelector('output.loan-amount__value')!;

    fireEvent.change(amount, { target: { value: '50000' } });
    expect(headline.textContent).toBe('₱50,000.00');
    expect(within(dialog).getAllByText('Minimum loan amount is ₱80,000')).toHaveLength(1);
    expect(dialog.textContent).toContain('Choose an amount from ₱80,000 to ₱4,000,000');

    fireEvent.change(amount, { target: { value: '5000000' } });
    expect(headline.textContent).toBe('₱5,000,000.00');
    expect(within(dialog).getAllByText('Maximum loan amount is ₱4,000,000')).toHaveLength(1);

    fireEvent.change(amount, { target: { value: '123456' } });
    fireEvent.blur(amount);
    expect(amount.value).toBe('120,000');
    expect(within(dialog).queryByText('Minimum loan amount is ₱80,000')).toBeNull();

    fireEvent.click(within(dialog).getByRole('button', { name: '₱250,000.00' }));
    expect(amount.value).toBe('250,000');
    expect(headline.textContent).toBe('₱250,000.00');
  });

  it('estimates at the rate the server is configured with, not a constant of the app', async () => {
    const dialog = await openApplyDialog(300);
    fireEvent.change(within(dialog).getByLabelText(/^Amount/), { target: { value: '100000' } });
    fireEvent.change(within(dialog).getByLabelText(/^Term/), { target: { value: '12' } });
    const cost = await within(dialog).findByRole('region', { name: 'What this loan costs' });
    // ₱100,000 over 12 months at 3% a month, flat: ₱36,000 of interest.
    expect(cost.textContent).toContain('at 3% per month');
    expect(within(cost).getByTestId('estimate-finance-charge').textContent).toBe('₱36,000.00');
    expect(within(cost).getByTestId('estimate-total').textContent).toBe('₱136,000.00');
  });

  it('puts the thousands separators in as the amount is typed, the caret after the digit it followed, and sends the number', async () => {
    const dialog = await openApplyDialog();
    const amount = within(dialog).getByLabelText<HTMLInputElement>(/^Amount/);
    amount.focus();
    fireEvent.change(amount, { target: { value: '1500000', selectionStart: 7 } });
    expect(amount.value).toBe('1,500,000');
    expect(amount.selectionStart).toBe(9);
    // A digit typed in the middle ("1,5|00,000" → "1,59|00,000"): the separators move, the caret stays after the 9.
    fireEvent.change(amount, { target: { value: '1,5900,000', selectionStart: 4, selectionEnd: 4 } });
    expect(amount.value).toBe('15,900,000');
    expect(amount.selectionStart).toBe(4);
    fireEvent.change(amount, { target: { value: '120,000' } });
    const sent = routeFetch({
      'GET /api/loans/user': () => jsonResponse([]),
      'POST /api/loans': () => jsonResponse({ message: 'stop here', code: 'TEST' }, { status: 409 }),
    });
    fireEvent.change(within(dialog).getByLabelText(/^Purpose/), { target: { value: 'Sari-sari store stock' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit application' }));
    await waitFor(() => expect(sent.mock.calls.some(([path]) => path === '/api/loans')).toBe(true));
    const [, init] = sent.mock.calls.find(([path]) => path === '/api/loans')!;
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the app sends JSON bodies as strings
    expect(JSON.parse(String(init!.body))).toMatchObject({ amount: 120000, termMonths: 12 });
  });

  it('rounds a typed amount to the nearest ₱10,000', () => {
    expect(roundedAmount('84999')).toBe('80000');
    expect(roundedAmount('85000')).toBe('90000');
    expect(roundedAmount('4000000')).toBe('4000000');
    expect(roundedAmount('')).toBe('');
    expect(roundedAmount('3000')).toBe('10000');
  });
  it('reads "100,000.00" as ₱100,000 and "150000.50" as ₱150,000.50, and says so when leaving the field rounds an amount', async () => {
    const dialog = await openApplyDialog();
    const amount = within(dialog).getByLabelText<HTMLInputElement>(/^Amount/);
    const headline = dialog.querySelector('output.loan-amount__value')!;

    fireEvent.change(amount, { target: { value: '100,000.00' } });
    expect(headline.textContent).toBe('₱100,000.00');
    expect(within(dialog).queryByText('Maximum loan amount is ₱4,000,000')).toBeNull();
    fireEvent.blur(amount);
    expect(amount.value).toBe('100,000');
    // The same amount, only written without its decimals: nothing to tell.
    expect(within(dialog).queryByTestId('amount-rounded')).toBeNull();

    fireEvent.change(amount, { target: { value: '150000.50' } });
    expect(headline.textContent).toBe('₱150,000.50');
    fireEvent.blur(amount);
    expect(amount.value).toBe('150,000');
    expect(within(dialog).getByTestId('amount-rounded').textContent).toBe('₱150,000.50 was rounded to ₱150,000.00: loans come in steps of ₱10,000.');

    fireEvent.change(amount, { target: { value: '1,234,567' } });
    expect(within(dialog).queryByTestId('amount-rounded')).toBeNull();
    fireEvent.blur(amount);
    expect(amount.value).toBe('1,230,000');
    expect(within(dialog).getByTestId('amount-rounded').textContent).toBe('₱1,234,567.00 was rounded to ₱1,230,000.00: loans come in steps of ₱10,000.');
  });
});

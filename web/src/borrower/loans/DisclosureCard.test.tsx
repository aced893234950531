import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, loanAnswer, requestOf, routeFetch } from '../../testing/http';
import { DisclosureCard } from './DisclosureCard';

const LOAN_ID = '0b5f6c7d-2a41-4e8e-9c1d-7a3f2b1c0d9e';
const HASH = 'ab'.repeat(32);
const STATEMENT = 'DISCLOSURE STATEMENT ON LOAN TRANSACTION\n\n1. Amount financed (paid into your Honeylend wallet): PHP 100,000.00';

describe('the Disclosure Statement card (RA 3765)', () => {
  it('shows the exact statement, accepts only once the borrower says they read it, and sends back its hash', async () => {
    const accepted = { ...loanAnswer({ status: 'active' }), account: null, businessDate: '2026-01-16' };
    const fetchMock = routeFetch({
      [`GET /api/loans/${LOAN_ID}/disclosure`]: () => jsonResponse({ statement: STATEMENT, hash: HASH, acceptedAt: null, acceptBy: '2026-01-23T02:00:00.000Z' }),
      [`POST /api/loans/${LOAN_ID}/acceptance`]: () => jsonResponse(accepted),
    });
    const onAccepted = vi.fn();
    render(<DisclosureCard loanId={LOAN_ID} onAccepted={onAccepted} />);
    expect((await screen.findByTestId('disclosure-statement')).textContent).toBe(STATEMENT);
    expect(screen.getByTestId('disclosure-hash').textContent).toBe(HASH);
    const accept = screen.getByRole<HTMLButtonElement>('button', { name: 'Accept' });
    expect(accept.disabled).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'I have read and understood this Disclosure Statement' }));
    fireEvent.click(accept);
    await waitFor(() => expect(onAccepted).toHaveBeenCalledWith(accepted));
    expect(requestOf(fetchMock, 1)).toMatchObject({ url: `/api/loans/${LOAN_ID}/acceptance`, method: 'POST', body: { hash: HASH } });
  });

  it("shows the server's reason when the statement changed, and asks to read the new one", async () => {
    let reads = 0;
    routeFetch({
      [`GET /api/loans/${LOAN_ID}/disclosure`]: () => jsonResponse({ statement: `${STATEMENT} v${++reads}`, hash: HASH, acceptedAt: null, acceptBy: '2026-01-23T02:00:00.000Z' }),
      [`POST /api/loans/${LOAN_ID}/acceptance`]: () => jsonResponse({ message: 'The Disclosure Statement changed since you read it. Read it again and accept the new one.', code: 'STATEMENT_CHANGED' }, { status: 409 }),
    });
    render(<DisclosureCard loanId={LOAN_ID} onAccepted={() => undefined} />);
    await screen.findByText(/v1$/);
    fireEvent.click(screen.getByRole('checkbox', { name: 'I have read and understood this Disclosure Statement' }));
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    expect((await screen.findByRole('alert')).textContent).toContain('changed since you read it');
    await screen.findByText(/v2$/);
    expect(screen.getByRole<HTMLInputElement>('checkbox').checked).toBe(false);
  });
});

import type { AdminWithdrawalAnswer } from '@honeylend/contracts';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { provideBrowserApisAntdNeeds } from '../../testing/antdInJsdom';
import { jsonResponse, requestOf, routeFetch, withdrawalAnswer } from '../../testing/http';
import { WithdrawalDetailDialog } from './WithdrawalDetailDialog';

const pending = (): AdminWithdrawalAnswer => ({
  ...withdrawalAnswer(),
  memberId: 'a1b2c3d4-0000-4000-8000-000000000001',
  member: { id: 'a1b2c3d4-0000-4000-8000-000000000001', fullName: 'Maria Santos', phone: '+639171234567', email: null },
});

describe('completing a withdrawal', () => {
  it('leaves the payout time to the server, whose business clock dated the request (the browser clock may be days behind it)', async () => {
    provideBrowserApisAntdNeeds();
    const withdrawal = pending();
    const fetchMock = routeFetch({
      [`PUT /api/admin/withdrawals/${withdrawal.id}`]: () => jsonResponse({ ...withdrawal, status: 'completed', processedAt: '2026-03-01T02:00:00.000Z', payoutReference: 'BPI-123' }),
    });
    const onDecided = vi.fn();
    render(<WithdrawalDetailDialog withdrawal={withdrawal} onClose={vi.fn()} onDecided={onDecided} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Complete' }));
    const confirm = await screen.findAllByRole('button', { name: 'Complete' });
    fireEvent.click(confirm[confirm.length - 1]);
    await waitFor(() => expect(onDecided).toHaveBeenCalled());
    const request = requestOf(fetchMock);
    expect(request).toMatchObject({ url: `/api/admin/withdrawals/${withdrawal.id}`, method: 'PUT', body: { status: 'completed' } });
    expect(request.body).not.toHaveProperty('processedAt');
  });
});

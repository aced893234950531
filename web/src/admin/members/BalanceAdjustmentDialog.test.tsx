import { DEFAULT_APPROVAL_SETTINGS, toApprovalSettingsAnswer, type AdminMemberAnswer, type ApprovalSettingsAnswer } from '@honeylend/contracts';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { provideBrowserApisAntdNeeds } from '../../testing/antdInJsdom';
import { jsonResponse, memberAnswer, requestOf, routeFetch } from '../../testing/http';
import { BalanceAdjustmentDialog } from './BalanceAdjustmentDialog';
import { useToasts } from '../../shared/toast/toastStore';

const settings = (adjustmentsNeedApproval: boolean): ApprovalSettingsAnswer => ({
  required: { ...DEFAULT_APPROVAL_SETTINGS_ANSWER.required, balance_adjustment: adjustmentsNeedApproval },
  withdrawalThreshold: DEFAULT_APPROVAL_SETTINGS_ANSWER.withdrawalThreshold,
  loanApprovalThreshold: DEFAULT_APPROVAL_SETTINGS_ANSWER.loanApprovalThreshold,
});
const DEFAULT_APPROVAL_SETTINGS_ANSWER = toApprovalSettingsAnswer(DEFAULT_APPROVAL_SETTINGS);
const member = (overrides: Partial<AdminMemberAnswer> = {}): AdminMemberAnswer => ({ ...memberAnswer({ balance: 5000 }), updatedAt: '2026-01-05T08:00:00.000Z', otp: null, closure: null, ...overrides });

describe('the balance adjustment dialog', () => {
  it('shows a debit with thousands separators and posts it as a signed number of pesos with the reason', async () => {
    provideBrowserApisAntdNeeds();
    const held = member();
    const fetchMock = routeFetch({
      '/api/admin/settings/approvals': () => jsonResponse(settings(false)),
      [`POST /api/admin/users/${held.id}/balance-adjustments`]: () =>
        jsonResponse({ adjustment: { id: 'a1', amount: -1250.5, reason: 'Duplicate disbursement', balanceAfter: 3749.5 }, user: member({ balance: 3749.5, version: 14 }) }),
    });
    const onAdjusted = vi.fn();
    render(<BalanceAdjustmentDialog member={held} onClose={() => undefined} onAdjusted={onAdjusted} />);

    const amount = await screen.findByLabelText<HTMLInputElement>('Amount in pesos (negative to debit)');
    fireEvent.change(amount, { target: { value: '-1,250.50' } });
    fireEvent.blur(amount);
    await waitFor(() => expect(amount.value).toBe('-1,250.50'));
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'Duplicate disbursement' } });
    // With four eyes off for adjustments, the button says it happens now.
    fireEvent.click(await screen.findByRole('button', { name: 'Post adjustment' }));

    await waitFor(() => expect(onAdjusted).toHaveBeenCalled());
    expect(
      requestOf(
        fetchMock,
        fetchMock.mock.calls.findIndex(([, init]) => init?.method === 'POST'),
      ).body,
    ).toEqual({ amount: -1250.5, reason: 'Duplicate disbursement' });
  });

  it('says an adjustment that waits for a second admin was sent for approval, and never shows it as made', async () => {
    provideBrowserApisAntdNeeds();
    const held = member();
    routeFetch({
      '/api/admin/settings/approvals': () => jsonResponse(settings(true)),
      [`POST /api/admin/users/${held.id}/balance-adjustments`]: () => jsonResponse({ approvalId: '6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5', status: 'awaiting_approval' }, { status: 202 }),
    });
    const onAdjusted = vi.fn();
    const onClose = vi.fn();
    render(<BalanceAdjustmentDialog member={held} onClose={onClose} onAdjusted={onAdjusted} />);
    fireEvent.change(await screen.findByLabelText('Amount in pesos (negative to debit)'), { target: { value: '500' } });
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'Goodwill credit' } });
    // Under four eyes the button asks, never posts (issue 37 item 12), and the dialog says who must agree.
    fireEvent.click(await screen.findByRole('button', { name: 'Request adjustment' }));
    expect(screen.getByText('A second admin must approve this on the Approvals page; the balance moves only then.')).toBeTruthy();

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onAdjusted).not.toHaveBeenCalled();
    const shown = useToasts.getState().toasts.map((toast) => `${toast.title}: ${toast.description}`);
    expect(shown.some((text) => text.startsWith('Sent for approval') && text.includes('happens only when a different admin approves it'))).toBe(true);
    expect(shown.some((text) => text.startsWith('Balance adjusted'))).toBe(false);
  });
});

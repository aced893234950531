import type { AdminMemberAnswer } from '@honeylend/contracts';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { provideBrowserApisAntdNeeds } from '../../testing/antdInJsdom';
import { jsonResponse, memberAnswer, requestOf, routeFetch } from '../../testing/http';
import { PasswordResetDialog } from './PasswordResetDialog';
import { useToasts } from '../../shared/toast/toastStore';

const member = (overrides: Partial<AdminMemberAnswer> = {}): AdminMemberAnswer => ({ ...memberAnswer({ fullName: 'Maria Santos' }), updatedAt: '2026-01-05T08:00:00.000Z', otp: null, closure: null, ...overrides });
const shownToasts = () => useToasts.getState().toasts.map((toast) => `${toast.title}: ${toast.description}`);

describe('the Reset password dialog (design §7: staff never choose or see a password)', () => {
  it('asks for no password, says a code is texted to the member, and sends the reset with no body', async () => {
    provideBrowserApisAntdNeeds();
    const held = member();
    const fetchMock = routeFetch({
      [`POST /api/admin/users/${held.id}/password-reset`]: () =>
        jsonResponse({ success: true, message: 'A reset code was texted to the member.', sentTo: '+63•••••••4567', user: member({ version: 14 }) }, { status: 202 }),
    });
    const onReset = vi.fn();
    const onClose = vi.fn();
    render(<PasswordResetDialog member={held} onClose={onClose} onReset={onReset} />);

    expect(await screen.findByText(/gets a reset code by text/)).toBeTruthy();
    expect(screen.getByText(/You never choose or see the member's password/)).toBeTruthy();
    expect(screen.queryAllByRole('textbox')).toHaveLength(0);
    expect(document.querySelector('input[type="password"]')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Text a reset code' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onReset).toHaveBeenCalledWith(expect.objectContaining({ id: held.id, version: 14 }));
    const request = requestOf(fetchMock);
    expect(request).toMatchObject({ url: `/api/admin/users/${held.id}/password-reset`, method: 'POST' });
    expect(request.body).toBeUndefined();
    expect(shownToasts().some((text) => text.startsWith('Reset code texted') && text.includes('+63•••••••4567') && text.includes('signed out everywhere'))).toBe(true);
  });

  it('stays open and says why when the server refuses (a suspended member), never claiming a code was sent', async () => {
    provideBrowserApisAntdNeeds();
    const held = member({ fullName: 'Jose Rizal' });
    const refusal = 'This member is suspended and could not use a reset code. Reactivate the account first.';
    routeFetch({ [`POST /api/admin/users/${held.id}/password-reset`]: () => jsonResponse({ message: refusal, code: 'MEMBER_SUSPENDED' }, { status: 409 }) });
    const onReset = vi.fn();
    const onClose = vi.fn();
    render(<PasswordResetDialog member={held} onClose={onClose} onReset={onReset} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Text a reset code' }));

    await waitFor(() => expect(shownToasts().some((text) => text.includes(refusal))).toBe(true));
    expect(onReset).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    expect(shownToasts().some((text) => text.startsWith('Reset code texted') && text.includes('Jose Rizal'))).toBe(false);
  });
});

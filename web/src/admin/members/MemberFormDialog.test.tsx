import type { AdminMemberAnswer } from '@honeylend/contracts';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { provideBrowserApisAntdNeeds } from '../../testing/antdInJsdom';
import { jsonResponse, memberAnswer, requestOf, routeFetch } from '../../testing/http';
import { MemberFormDialog } from './MemberFormDialog';
import { StaffContext } from '../layout/staffContext';

const member = (overrides: Partial<AdminMemberAnswer> = {}): AdminMemberAnswer => ({ ...memberAnswer({ monthlySalary: 42000 }), updatedAt: '2026-01-05T08:00:00.000Z', otp: null, closure: null, ...overrides });

describe('the member edit dialog', () => {
  it('shows the monthly salary in pesos with thousands separators and sends it as a number', async () => {
    provideBrowserApisAntdNeeds();
    const held = member();
    const fetchMock = routeFetch({ [`PUT /api/admin/users/${held.id}`]: () => jsonResponse(member({ monthlySalary: 45500, version: 13 })) });
    const onSaved = vi.fn();
    render(<MemberFormDialog open member={held} onClose={() => undefined} onSaved={onSaved} />);

    const salary = await screen.findByLabelText<HTMLInputElement>('Monthly salary (₱)');
    await waitFor(() => expect(salary.value).toBe('42,000'));

    fireEvent.change(salary, { target: { value: '45,500' } });
    fireEvent.blur(salary);
    await waitFor(() => expect(salary.value).toBe('45,500'));
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(requestOf(fetchMock).body).toEqual({ monthlySalary: 45500 });
  });

  it('locks the phone for a plain admin and an existing bank account for everyone, saying why (issue 14)', async () => {
    provideBrowserApisAntdNeeds();
    const held = member({ bankName: 'BPI', bankAccountNumber: '1234567890' });
    routeFetch({});
    const view = render(<MemberFormDialog open member={held} onClose={() => undefined} onSaved={() => undefined} />);
    expect((await screen.findByLabelText<HTMLInputElement>('Mobile number')).disabled).toBe(true);
    expect(screen.getByText("Only the main admin can change a member's phone number.")).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Account number').disabled).toBe(true);
    expect(screen.getAllByText('Only the member can change their bank account, with a code sent to their phone.')).toHaveLength(2);
    view.unmount();

    render(
      <StaffContext.Provider value={{ role: 'superadmin' }}>
        <MemberFormDialog open member={member()} onClose={() => undefined} onSaved={() => undefined} />
      </StaffContext.Provider>,
    );
    expect((await screen.findByLabelText<HTMLInputElement>('Mobile number')).disabled).toBe(false);
    expect(screen.getByLabelText<HTMLInputElement>('Account number').disabled).toBe(false);
  });
});

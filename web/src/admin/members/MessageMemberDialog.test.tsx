import type { AdminMemberAnswer } from '@honeylend/contracts';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { provideBrowserApisAntdNeeds } from '../../testing/antdInJsdom';
import { jsonResponse, memberAnswer, requestOf, routeFetch } from '../../testing/http';
import { MessageMemberDialog } from './MessageMemberDialog';

const member = (): AdminMemberAnswer => ({ ...memberAnswer({ fullName: 'Maria Santos' }), updatedAt: '2026-01-05T08:00:00.000Z', otp: null, closure: null });

describe('a message to a member from their row (issue 17, item 5)', () => {
  it('sends the title and message to POST /api/admin/notifications for that member', async () => {
    provideBrowserApisAntdNeeds();
    const held = member();
    const fetchMock = routeFetch({ 'POST /api/admin/notifications': () => jsonResponse({ id: 'n1', memberId: held.id }, { status: 201 }) });
    const onClose = vi.fn();
    render(<MessageMemberDialog member={held} onClose={onClose} />);
    fireEvent.change(await screen.findByLabelText('Title'), { target: { value: 'Documents received' } });
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Thank you: your ID is being checked.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send message' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(requestOf(fetchMock)).toMatchObject({
      url: '/api/admin/notifications',
      method: 'POST',
      body: { userId: held.id, title: 'Documents received', message: 'Thank you: your ID is being checked.', type: 'general' },
    });
  });

  it('shows the no-money-request refusal on the field that asked, and stays open', async () => {
    provideBrowserApisAntdNeeds();
    const refusal = 'A message to a member may not ask the borrower to pay, deposit or send money ("fee"). Honeylend never asks borrowers for money this way.';
    routeFetch({ 'POST /api/admin/notifications': () => jsonResponse({ message: refusal, code: 'MONEY_REQUEST', details: { fields: { message: refusal } } }, { status: 400 }) });
    const onClose = vi.fn();
    render(<MessageMemberDialog member={member()} onClose={onClose} />);
    fireEvent.change(await screen.findByLabelText('Title'), { target: { value: 'Release' } });
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Pay the release fee first' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect((await screen.findAllByText(refusal)).length).toBeGreaterThan(0);
    expect(onClose).not.toHaveBeenCalled();
  });
});

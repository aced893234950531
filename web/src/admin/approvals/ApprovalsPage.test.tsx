import type { ApprovalAnswer } from '@honeylend/contracts';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { provideBrowserApisAntdNeeds } from '../../testing/antdInJsdom';
import { jsonResponse, routeFetch } from '../../testing/http';
import { ApprovalsPage, OWN_REQUEST_REASON, ageOf } from './ApprovalsPage';

const me = 'a1a1a1a1-b2b2-4c3c-8d4d-e5e5e5e5e5e5';
const colleague = 'c3c3c3c3-d4d4-4e5e-9f6f-a7a7a7a7a7a7';

function tokenOf(sub: string): string {
  return `eyJhbGciOiJIUzI1NiJ9.${btoa(JSON.stringify({ sub, role: 'admin' })).replace(/=+$/, '')}.signature`;
}

const approval = (id: string, makerId: string, makerName: string, memberName: string): ApprovalAnswer => ({
  id,
  kind: 'balance_adjustment',
  kindLabel: 'Balance adjustment',
  summary: `Credit ₱1,500.00 to ${memberName}'s wallet`,
  amount: 1500,
  memberId: '0b9a8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d',
  memberName,
  maker: { id: makerId, name: makerName },
  reason: 'Refund of a double charge',
  status: 'pending',
  requestedAt: new Date(Date.now() - 5.5 * 60_000).toISOString(),
  expiresAt: new Date(Date.now() + 23 * 3600_000).toISOString(),
  decidedBy: null,
  decidedAt: null,
  rejectionReason: null,
  execution: null,
  version: 7,
});

describe('the Approvals page', () => {
  it("lists what waits with maker, command, amount and age; the signed-in admin's own request cannot be approved by them, and says why", async () => {
    provideBrowserApisAntdNeeds();
    localStorage.setItem('token', tokenOf(me));
    routeFetch({
      '/api/admin/approvals?status=pending&page=1&pageSize=10': () =>
        jsonResponse({ items: [approval('11111111-1111-4111-8111-111111111111', me, 'Andres Maker', 'Rosario Dizon'), approval('22222222-2222-4222-8222-222222222222', colleague, 'Lorna Checker', 'Imelda Cruz')], total: 2, page: 1, pageSize: 10 }),
    });
    render(
      <MemoryRouter>
        <ApprovalsPage />
      </MemoryRouter>,
    );
    const own = (await screen.findByText("Credit ₱1,500.00 to Rosario Dizon's wallet")).closest('tr')!;
    expect(within(own).getByText('You')).toBeTruthy();
    expect(within(own).getByText('5 min ago')).toBeTruthy();
    const ownApprove = within(own).getByRole('button', { name: 'Approve' }) as HTMLButtonElement;
    expect(ownApprove.disabled).toBe(true);
    expect(ownApprove.getAttribute('aria-description')).toBe(OWN_REQUEST_REASON);

    const theirs = screen.getByText("Credit ₱1,500.00 to Imelda Cruz's wallet").closest('tr')!;
    expect(within(theirs).getByText('Lorna Checker')).toBeTruthy();
    expect((within(theirs).getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(false);
    expect(within(theirs).getByText('₱1,500.00')).toBeTruthy();
  });

  it('says how long a request has waited', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    expect(ageOf('2026-11-25T11:59:40Z', now)).toBe('just now');
    expect(ageOf('2026-11-25T11:15:00Z', now)).toBe('45 min ago');
    expect(ageOf('2026-11-25T09:30:00Z', now)).toBe('2 h 30 min ago');
  });
});

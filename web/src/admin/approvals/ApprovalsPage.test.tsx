import type { ApprovalAnswer } from '@honeylend/contracts';
import { fireEvent, render, screen, within } from '@testing-library/react';
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
  loanId: null,
  target: null,
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
  it('ages a request by the business clock the server dated it on, when the business date was moved ahead of the calendar', async () => {
    provideBrowserApisAntdNeeds();
    localStorage.setItem('token', tokenOf(me));
    const day = 86_400_000;
    const calendarDate = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const movedDate = new Date(Date.parse(`${calendarDate}T00:00:00Z`) + 3 * day).toISOString().slice(0, 10);
    // Made two hours ago on a business date three days ahead of the calendar.
    const request = { ...approval('33333333-3333-4333-8333-333333333333', colleague, 'Lorna Checker', 'Teodoro Lim'), requestedAt: new Date(Date.now() + 3 * day - 2 * 3600_000).toISOString() };
    routeFetch({
      '/api/dev/business-date': () => jsonResponse({ date: movedDate, calendarDate, lastDayClose: movedDate }),
      '/api/admin/approvals?status=pending&page=1&pageSize=10': () => jsonResponse({ items: [request], total: 1, page: 1, pageSize: 10 }),
    });
    render(
      <MemoryRouter>
        <ApprovalsPage />
      </MemoryRouter>,
    );
    const row = (await screen.findByText("Credit ₱1,500.00 to Teodoro Lim's wallet")).closest('tr')!;
    expect(await within(row).findByText('2 h 0 min ago')).toBeTruthy();
  });

  it("lists what waits with maker, command, amount and age; the signed-in admin's own request cannot be approved by them, and says why", async () => {
    provideBrowserApisAntdNeeds();
    localStorage.setItem('token', tokenOf(me));
    routeFetch({
      '/api/admin/approvals?status=pending&page=1&pageSize=10': () =>
        jsonResponse({
          items: [approval('11111111-1111-4111-8111-111111111111', me, 'Andres Maker', 'Rosario Dizon'), approval('22222222-2222-4222-8222-222222222222', colleague, 'Lorna Checker', 'Imelda Cruz')],
          total: 2,
          page: 1,
          pageSize: 10,
        }),
    });
    render(
      <MemoryRouter>
        <ApprovalsPage />
      </MemoryRouter>,
    );
    const own = (await screen.findByText("Credit ₱1,500.00 to Rosario Dizon's wallet")).closest('tr')!;
    expect(within(own).getByText('You')).toBeTruthy();
    expect(within(own).getByText('5 min ago')).toBeTruthy();
    const ownApprove = within(own).getByRole<HTMLButtonElement>('button', { name: 'Approve' });
    expect(ownApprove.disabled).toBe(true);
    expect(ownApprove.getAttribute('aria-description')).toBe(OWN_REQUEST_REASON);

    const theirs = screen.getByText("Credit ₱1,500.00 to Imelda Cruz's wallet").closest('tr')!;
    expect(within(theirs).getByText('Lorna Checker')).toBeTruthy();
    expect(within(theirs).getByRole<HTMLButtonElement>('button', { name: 'Approve' }).disabled).toBe(false);
    expect(within(theirs).getByText('₱1,500.00')).toBeTruthy();
  });

  it('offers to carry out an approved request whose command stopped (granted over a minute ago, still running), not one granted just now, and never to its maker', async () => {
    provideBrowserApisAntdNeeds();
    localStorage.setItem('token', tokenOf(me));
    const granted = (id: string, makerId: string, memberName: string, agoMs: number): ApprovalAnswer => ({
      ...approval(id, makerId, 'Someone', memberName),
      status: 'approved',
      decidedBy: { id: colleague, name: 'Lorna Checker' },
      decidedAt: new Date(Date.now() - agoMs).toISOString(),
      execution: { outcome: 'running', message: null },
    });
    routeFetch({
      '/api/admin/approvals?status=pending&page=1&pageSize=10': () => jsonResponse({ items: [], total: 0, page: 1, pageSize: 10 }),
      '/api/admin/approvals?status=approved&page=1&pageSize=10': () =>
        jsonResponse({
          items: [
            granted('33333333-3333-4333-8333-333333333333', colleague, 'Stopped Member', 5 * 60_000),
            granted('44444444-4444-4444-8444-444444444444', colleague, 'Running Member', 2_000),
            granted('55555555-5555-4555-8555-555555555555', me, 'Own Member', 5 * 60_000),
          ],
          total: 3,
          page: 1,
          pageSize: 10,
        }),
    });
    render(
      <MemoryRouter>
        <ApprovalsPage />
      </MemoryRouter>,
    );
    await screen.findByText('No requests');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Status filter' }));
    fireEvent.click(await screen.findByTitle('Approved'));
    const stoppedRow = (await screen.findByText("Credit ₱1,500.00 to Stopped Member's wallet")).closest('tr')!;
    expect(within(stoppedRow).getByRole('button', { name: 'Carry out' })).toBeTruthy();
    const runningRow = screen.getByText("Credit ₱1,500.00 to Running Member's wallet").closest('tr')!;
    expect(within(runningRow).queryByRole('button', { name: 'Carry out' })).toBeNull();
    const ownRow = screen.getByText("Credit ₱1,500.00 to Own Member's wallet").closest('tr')!;
    expect(within(ownRow).queryByRole('button', { name: 'Carry out' })).toBeNull();
  });

  it('says how long a request has waited', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    expect(ageOf('2026-11-25T11:59:40Z', now)).toBe('just now');
    expect(ageOf('2026-11-25T11:15:00Z', now)).toBe('45 min ago');
    expect(ageOf('2026-11-25T09:30:00Z', now)).toBe('2 h 30 min ago');
  });
});

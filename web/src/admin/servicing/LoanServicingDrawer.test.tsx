import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { evolveLoanAccount, type ApprovalAnswer } from '@honeylend/contracts';
import { provideBrowserApisAntdNeeds } from '../../testing/antdInJsdom';
import { jsonResponse, loanAnswer, routeFetch } from '../../testing/http';
import { FIXTURE_LOAN_ID, FIXTURE_MEMBER_ID, openedAccount, withRepayment } from '../../testing/loanAccounts';
import { LoanServicingDrawer } from './LoanServicingDrawer';

const loanId = FIXTURE_LOAN_ID;
const memberId = FIXTURE_MEMBER_ID;
const repaymentId = '9d1c7f0e-52a3-4b8e-9a61-3c5d7e9f1a20';
const otherRepaymentId = '9d1c7f0e-52a3-4b8e-9a61-3c5d7e9f1a21';

function activeLoanWithTwoRepayments(lateOn?: string) {
  let account = openedAccount(30_000_00, 3, '2026-01-15');
  for (const [id, receipt] of [
    [repaymentId, 'OR-2026-000123-001'],
    [otherRepaymentId, 'OR-2026-000123-002'],
  ] as const) {
    account = withRepayment(account, { repaymentId: id, receiptNumber: receipt, amountCentavos: 1_000_00, valueDate: '2026-02-01', channel: 'bank', reference: receipt });
  }
  // Closed through `lateOn`, the first instalment (due 15 March) is late and carries late charges: the waiver form shows.
  if (lateOn) account = evolveLoanAccount(account, { type: 'LoanDayClosed', data: { loanId, memberId, daysPastDue: 41, businessDate: lateOn } })!;
  return { ...loanAnswer({ id: loanId, memberId, status: 'active', account }), memberId, member: null };
}

const reversalRequest: ApprovalAnswer = {
  id: 'a1a1a1a1-b2b2-4c3c-8d4d-e5e5e5e5e5e5',
  kind: 'repayment_reversal',
  kindLabel: 'Repayment reversal',
  summary: 'Reverse OR-2026-000123-001',
  amount: 1000,
  memberId,
  memberName: 'Maria Santos',
  loanId,
  target: `repayment:${repaymentId}`,
  maker: { id: 'c3c3c3c3-d4d4-4e5e-9f6f-a7a7a7a7a7a7', name: 'Rosario' },
  reason: 'Cheque bounced',
  status: 'pending',
  requestedAt: '2026-02-02T02:00:00.000Z',
  expiresAt: '2026-02-03T02:00:00.000Z',
  decidedBy: null,
  decidedAt: null,
  rejectionReason: null,
  execution: null,
  version: 9,
};

describe('the servicing drawer', () => {
  it('shows a reversal waiting for a second admin on its repayment and does not offer Reverse for it again', async () => {
    provideBrowserApisAntdNeeds();
    routeFetch({
      [`/api/admin/loans/${loanId}`]: () => jsonResponse(activeLoanWithTwoRepayments()),
      '/api/dev/business-date': () => jsonResponse({ date: '2026-02-02' }),
      [`/api/admin/approvals?status=pending&memberId=${memberId}&pageSize=100`]: () => jsonResponse({ items: [reversalRequest], total: 1, page: 1, pageSize: 100 }),
    });
    render(<LoanServicingDrawer loanId={loanId} onClose={() => undefined} />);
    const waiting = await screen.findByText('Reversal awaiting approval', undefined, { timeout: 10_000 });
    const waitingRow = waiting.closest('tr')!;
    expect(waitingRow.textContent).toContain('OR-2026-000123-001');
    expect(within(waitingRow).queryByRole('button', { name: 'Reverse' })).toBeNull();
    const otherRow = screen.getByText('OR-2026-000123-002').closest('tr')!;
    expect(within(otherRow).getByRole('button', { name: 'Reverse' })).toBeTruthy();
  });

  it('gives the record and waiver forms fields of their own ids (two "amount" fields once shared one)', async () => {
    provideBrowserApisAntdNeeds();
    routeFetch({
      [`/api/admin/loans/${loanId}`]: () => jsonResponse(activeLoanWithTwoRepayments('2026-04-25')),
      '/api/dev/business-date': () => jsonResponse({ date: '2026-04-25' }),
      [`/api/admin/approvals?status=pending&memberId=${memberId}&pageSize=100`]: () => jsonResponse({ items: [], total: 0, page: 1, pageSize: 100 }),
    });
    render(<LoanServicingDrawer loanId={loanId} onClose={() => undefined} />);
    await screen.findByText(/Waive late charges/, undefined, { timeout: 10_000 });
    const ids = [...document.querySelectorAll('input[id], textarea[id]')].map((field) => field.id);
    expect(ids.filter((id) => id.endsWith('amount'))).toHaveLength(2);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

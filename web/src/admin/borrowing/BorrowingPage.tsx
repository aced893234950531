import { adminLoanTermsBody, isDeletable, type AdminLoanAnswer, type LoanAnswer, type UserAnswer } from '@honeylend/contracts';
import { Button, InputNumber, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useEffect, useState } from 'react';
import { apiRequest } from '../../shared/api';
import { toast } from '../../shared/toast/toastStore';
import { formatDate, formatPercent, formatPesoAmount, statusLabel } from '../../shared/money';
import { attempt, successToast } from '../../console/adminApi';
import { AuditDrawer, type AuditSubject } from '../audit/AuditDrawer';
import { ConfirmAction } from '../layout/ConfirmAction';
import { PageHeader } from '../../console/layout/PageHeader';
import { ListToolbar } from '../lists/ListToolbar';
import { MemberCell } from '../lists/MemberCell';
import { pagedTableProps, useListFilters } from '../lists/pagedList';
import { useAdminEvent } from '../live/adminFeed';
import { useLiveList } from '../live/useLiveList';
import { OtpStatusTag } from '../members/OtpStatusTag';
import { PESO_INPUT } from '../pesoInput';
import { CustomStatusesDialog, type LoanStatusesAnswer } from './CustomStatusesDialog';
import { LoanReviewDrawer } from './LoanReviewDrawer';
import { LoanStatusDialog } from './LoanStatusDialog';
import { loanStatusColour } from './loanStatusColours';
import { LoanServicingDrawer } from '../servicing/LoanServicingDrawer';

/** Pushed loans are the borrower's shape (with a schedule, without the member): the row keeps its member. */
function mergeLoan(held: AdminLoanAnswer, pushed: LoanAnswer): AdminLoanAnswer {
  const { schedule: _schedule, ...loan } = pushed;
  return { ...held, ...loan };
}

interface TermsDraft {
  id: string;
  amount: number | null;
  termMonths: number | null;
}

/** The first message of the admin limits (spec §5: amount ₱80,000–₱4,000,000, term 6–60), or null when the terms are fine. */
export function termsProblem(draft: TermsDraft): string | null {
  if (draft.amount === null || draft.termMonths === null) return 'Enter the amount and the term';
  const result = adminLoanTermsBody.safeParse({ amount: draft.amount, termMonths: draft.termMonths });
  return result.success ? null : (result.error.issues[0]?.message ?? 'Check the amount and term');
}

/** Spec §2 Borrowing list: search, the loans with their member, inline terms while pending, status updates, deletion, custom statuses. */
export function BorrowingPage() {
  // No status filter here: the search matches statuses too.
  const filters = useListFilters();
  const list = useLiveList<AdminLoanAnswer, LoanAnswer>({
    path: '/api/admin/loans',
    query: filters.query,
    failureTitle: 'Failed to fetch loans',
    updated: 'loan.updated',
    deleted: 'loan.deleted',
    merge: mergeLoan,
  });
  const [statuses, setStatuses] = useState<LoanStatusesAnswer | null>(null);
  const [managingStatuses, setManagingStatuses] = useState(false);
  const [changing, setChanging] = useState<AdminLoanAnswer | null>(null);
  const [draft, setDraft] = useState<TermsDraft | null>(null);
  const [savingTerms, setSavingTerms] = useState(false);
  const [auditing, setAuditing] = useState<AuditSubject | null>(null);
  const [servicing, setServicing] = useState<string | null>(null);
  const [reviewingId, setReviewingId] = useState<string | null>(null);
  // The drawer follows the row, so a change made elsewhere shows in it at once.
  const reviewing = list.rows.find((row) => row.id === reviewingId) ?? null;

  useEffect(() => {
    apiRequest<LoanStatusesAnswer>('/api/admin/loan-statuses')
      .then(setStatuses)
      .catch(() => setStatuses(null));
  }, []);

  // A member's balance, credit score or status changes show in every loan row they hold.
  useAdminEvent<UserAnswer>('member.updated', ({ doc }) => {
    list.update((rows) =>
      rows.map((row) =>
        row.member && row.member.id === doc.id
          ? { ...row, member: { ...row.member, fullName: doc.fullName, email: doc.email, phone: doc.phone, balance: doc.balance, creditScore: doc.creditScore, creditTier: doc.creditTier, status: doc.status } }
          : row,
      ),
    );
  });

  async function saveTerms() {
    if (!draft) return;
    const problem = termsProblem(draft);
    if (problem) {
      toast({ variant: 'destructive', title: 'Update failed', description: problem });
      return;
    }
    setSavingTerms(true);
    const answer = await attempt<AdminLoanAnswer>('Update failed', `/api/admin/loans/${draft.id}`, { method: 'PUT', body: { amount: draft.amount, termMonths: draft.termMonths } });
    setSavingTerms(false);
    if (!answer) return;
    list.replace(answer);
    setDraft(null);
    successToast('Loan updated', `${answer.loanNumber}: ${formatPesoAmount(answer.amount)} over ${answer.termMonths} months.`);
  }

  async function remove(loan: AdminLoanAnswer) {
    const answer = await attempt<{ success: true }>('Delete failed', `/api/admin/loans/${loan.id}`, { method: 'DELETE' });
    if (!answer) return;
    list.remove(loan.id);
    successToast('Loan deleted', `${loan.loanNumber} was deleted.`);
  }

  const editingRow = (loan: AdminLoanAnswer) => draft?.id === loan.id;

  const columns: TableColumnsType<AdminLoanAnswer> = [
    {
      title: 'Member',
      key: 'member',
      render: (_, loan) => <MemberCell member={loan.member} />,
    },
    {
      title: 'Loan ID',
      key: 'loanNumber',
      render: (_, loan) => (
        <Space direction="vertical" size={0}>
          <Typography.Text code style={{ whiteSpace: 'nowrap' }}>
            {loan.loanNumber}
          </Typography.Text>
          <Typography.Text type="secondary">{formatDate(loan.createdAt)}</Typography.Text>
        </Space>
      ),
    },
    {
      title: 'Wallet Balance',
      key: 'balance',
      align: 'right',
      // The amount stays on one line; the header may take two.
      render: (_, loan) => <span className="admin-nowrap">{loan.member ? formatPesoAmount(loan.member.balance) : '—'}</span>,
    },
    { title: 'OTP', key: 'otp', render: (_, loan) => <OtpStatusTag otp={loan.member?.otp ?? null} /> },
    { title: 'Credit Score', key: 'creditScore', align: 'right', render: (_, loan) => loan.member?.creditScore ?? '—' },
    {
      title: 'Amount',
      key: 'amount',
      align: 'right',
      className: 'admin-nowrap',
      render: (_, loan) =>
        editingRow(loan) ? (
          <InputNumber
            aria-label="Amount"
            min={80_000}
            max={4_000_000}
            step={10_000}
            value={draft!.amount}
            onChange={(value) => setDraft({ ...draft!, amount: typeof value === 'number' ? value : null })}
            style={{ width: 150 }}
            {...PESO_INPUT}
          />
        ) : (
          formatPesoAmount(loan.amount)
        ),
    },
    {
      title: 'Term',
      key: 'term',
      className: 'admin-nowrap',
      render: (_, loan) =>
        editingRow(loan) ? (
          <InputNumber aria-label="Term in months" min={6} max={60} precision={0} value={draft!.termMonths} onChange={(value) => setDraft({ ...draft!, termMonths: value })} style={{ width: 80 }} />
        ) : (
          `${loan.termMonths} months`
        ),
    },
    { title: 'Interest / month', key: 'interest', align: 'right', render: (_, loan) => formatPercent(loan.interestRate) },
    {
      title: 'Status',
      key: 'status',
      className: 'admin-nowrap',
      render: (_, loan) => (
        <>
          <Tag color={loanStatusColour(loan.status)}>{statusLabel(loan.status)}</Tag>
          {/* RA 3765: the money moves only once the borrower accepts the Disclosure Statement. */}
          {loan.acceptance.awaiting && (
            <div className="admin-muted" data-testid="awaiting-acceptance">
              awaiting the borrower&apos;s acceptance
            </div>
          )}
        </>
      ),
    },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, loan) =>
        editingRow(loan) ? (
          <Space size={4}>
            <Button size="small" type="primary" loading={savingTerms} onClick={() => void saveTerms()}>
              Save
            </Button>
            <Button size="small" onClick={() => setDraft(null)}>
              Cancel
            </Button>
          </Space>
        ) : (
          // Two short lines instead of one long one, so the whole table fits a 1440 px screen.
          <Space direction="vertical" size={4}>
            <Space size={4}>
              <Button size="small" type="primary" disabled={['approved', 'active', 'completed', 'lapsed', 'cancelled'].includes(loan.status)} onClick={() => setChanging(loan)}>
                Update status
              </Button>
              <Button size="small" onClick={() => setReviewingId(loan.id)}>
                Review
              </Button>
            </Space>
            {(loan.status === 'active' || loan.status === 'completed') && (
              <Button size="small" onClick={() => setServicing(loan.id)}>
                Repayments
              </Button>
            )}
            {(loan.status === 'pending' || isDeletable(loan.status)) && (
              <Space size={4}>
                {loan.status === 'pending' && (
                  <Button size="small" onClick={() => setDraft({ id: loan.id, amount: loan.amount, termMonths: loan.termMonths })}>
                    Edit terms
                  </Button>
                )}
                {isDeletable(loan.status) && (
                  <ConfirmAction action="Delete" title="Delete loan" description={`Are you sure you want to delete loan ${loan.loanNumber}? This cannot be undone.`} onConfirm={() => remove(loan)} destructive />
                )}
              </Space>
            )}
          </Space>
        ),
    },
  ];

  return (
    <>
      <PageHeader title="Borrowing List">
        <Button onClick={() => setManagingStatuses(true)}>Loan statuses</Button>
      </PageHeader>
      <ListToolbar label="Search loans" placeholder="Search by name, email, phone, loan ID or status" width={420} onSearch={filters.setSearch} />
      <Table<AdminLoanAnswer>
        columns={columns}
        {...pagedTableProps(list, filters, { empty: 'No loan applications found', counted: 'loans' })}
        // Wide enough for every column without squeezing; below it (a 1024 px window) the table scrolls.
        scroll={{ x: 1100 }}
      />
      <LoanStatusDialog loan={changing} customStatuses={statuses?.custom ?? []} onClose={() => setChanging(null)} onChanged={list.replace} />
      <CustomStatusesDialog open={managingStatuses} statuses={statuses} onClose={() => setManagingStatuses(false)} onChanged={setStatuses} />
      <LoanReviewDrawer loan={reviewing} onClose={() => setReviewingId(null)} onHistory={(loan) => setAuditing({ stream: `loan-${loan.id}`, title: loan.loanNumber, memberId: loan.memberId })} />
      <AuditDrawer subject={auditing} onClose={() => setAuditing(null)} />
      <LoanServicingDrawer loanId={servicing} onClose={() => setServicing(null)} />
    </>
  );
}

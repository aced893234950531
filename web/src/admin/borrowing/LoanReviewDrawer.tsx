import type { AdminLoanAnswer, AdminMemberAnswer } from '@honeylend/contracts';
import { Alert, Button, Descriptions, Drawer, Image, Space, Spin, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { formatDate, formatPercent, formatPesoAmount, statusLabel } from '../../shared/money';
import { attempt } from '../../console/adminApi';
import { loanStatusColour } from './loanStatusColours';
import { PAYMENT_TO_INCOME_WARNING_PERCENT, paymentToIncomePercent } from './paymentToIncome';

/**
 * Issue 22, item 16: what an admin needs beside the Borrowing List row to decide an application —
 * the member's salary and what share of it the instalment takes, the purpose, the documents
 * (read-only) and, one click away, the loan's history.
 */
export function LoanReviewDrawer({ loan, onClose, onHistory }: { loan: AdminLoanAnswer | null; onClose: () => void; onHistory: (loan: AdminLoanAnswer) => void }) {
  const [member, setMember] = useState<AdminMemberAnswer | null>(null);
  const [loading, setLoading] = useState(false);
  const memberId = loan?.memberId ?? null;

  useEffect(() => {
    setMember(null);
    if (!memberId) return;
    let current = true;
    setLoading(true);
    void attempt<AdminMemberAnswer>('Failed to fetch the member', `/api/admin/users/${memberId}`, {}).then((answer) => {
      if (!current) return;
      setMember(answer);
      setLoading(false);
    });
    return () => {
      current = false;
    };
  }, [memberId]);

  const ratio = loan && member ? paymentToIncomePercent(loan.monthlyPayment, member.monthlySalary) : null;
  const documents = member
    ? ([
        ['ID front', member.idFrontUrl],
        ['ID back', member.idBackUrl],
        ['Selfie', member.selfieUrl],
      ] as const)
    : [];

  return (
    <Drawer open={loan !== null} onClose={onClose} width={560} title={loan ? `Review ${loan.loanNumber}` : 'Review'}>
      {loan && (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <Descriptions column={1} bordered size="small" title="Application">
            <Descriptions.Item label="Status">
              <Tag color={loanStatusColour(loan.status)}>{statusLabel(loan.status)}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label="Amount">{formatPesoAmount(loan.amount)}</Descriptions.Item>
            <Descriptions.Item label="Term">{loan.termMonths} months</Descriptions.Item>
            <Descriptions.Item label="Monthly payment">
              {formatPesoAmount(loan.monthlyPayment)} at {formatPercent(loan.interestRate)} per month
            </Descriptions.Item>
            <Descriptions.Item label="Purpose">{loan.purpose}</Descriptions.Item>
            <Descriptions.Item label="Applied">{formatDate(loan.createdAt)}</Descriptions.Item>
          </Descriptions>
          {loading && <Spin />}
          {member && (
            <>
              <Descriptions column={1} bordered size="small" title="Member">
                <Descriptions.Item label="Name">{member.fullName}</Descriptions.Item>
                <Descriptions.Item label="Monthly salary">{member.monthlySalary === null ? '—' : formatPesoAmount(member.monthlySalary)}</Descriptions.Item>
                <Descriptions.Item label="Payment to income">
                  <span data-testid="payment-to-income">{ratio === null ? '—' : `${ratio}% of the monthly salary`}</span>
                </Descriptions.Item>
                <Descriptions.Item label="Country of work">{member.countryOfWork ?? '—'}</Descriptions.Item>
                <Descriptions.Item label="Credit score">
                  {member.creditScore} ({member.creditTier.label})
                </Descriptions.Item>
              </Descriptions>
              {ratio !== null && ratio > PAYMENT_TO_INCOME_WARNING_PERCENT && (
                <Alert
                  type="warning"
                  showIcon
                  message={`The monthly payment takes ${ratio}% of this member's salary.`}
                  description={`${formatPesoAmount(loan.monthlyPayment)} a month on a salary of ${formatPesoAmount(member.monthlySalary!)}.`}
                />
              )}
              <div>
                <Typography.Title level={5}>Documents</Typography.Title>
                <Image.PreviewGroup>
                  <Space wrap>
                    {documents.map(([label, url]) => (url ? <Image key={label} src={url} alt={label} width={150} height={110} style={{ objectFit: 'cover' }} /> : <Tag key={label}>{label}: not uploaded</Tag>))}
                  </Space>
                </Image.PreviewGroup>
              </div>
            </>
          )}
          <Button onClick={() => onHistory(loan)}>Show history</Button>
        </Space>
      )}
    </Drawer>
  );
}

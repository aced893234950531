import { Line } from '@ant-design/charts';
import { manilaDate, type Book, type BookAnswer } from '@honeylend/contracts';
import { Alert, Card, DatePicker, Empty, Progress, Space, Statistic, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { apiRequest } from '../../shared/api';
import { formatDateTime, formatPesoAmount, statusLabel } from '../../shared/money';
import { failureToast } from '../../console/adminApi';
import { PageHeader } from '../../console/layout/PageHeader';
import { useAuditJobUpdates } from '../auditFeed';
import { bookChartPoints } from './bookSeries';

const POLL_MS = 1_000;
const pesos = (centavos: number) => formatPesoAmount(centavos / 100);

/**
 * The whole book as of a date (issue 16 item 5): folded from the log up to the last event of that
 * day (Manila), by the server, as a job whose progress shows here; its figures and a chart of the
 * book at the end of each day before it.
 */
export function BookPage() {
  const [asOf, setAsOf] = useState(() => manilaDate(new Date()));
  const [answer, setAnswer] = useState<BookAnswer | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setAnswer(null);
    setFailed(null);
    const read = () =>
      apiRequest<BookAnswer>(`/api/audit/book?asOf=${encodeURIComponent(asOf)}`, { cache: 'no-store' })
        .then((result) => {
          if (stopped) return;
          setAnswer(result);
          if (result.status === 'running') timer = setTimeout(() => void read(), POLL_MS);
        })
        .catch((error: unknown) => {
          if (stopped) return;
          setFailed(error instanceof Error ? error.message : 'Request failed');
          failureToast('Failed to fetch the book', error);
        });
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [asOf]);

  useAuditJobUpdates((update) => {
    if (update.kind !== 'book' || !update.book) return;
    const progress = update.book;
    setAnswer((current) => (current?.status === 'running' && current.jobId === update.jobId ? { ...current, progress: { folded: progress.folded, of: progress.of } } : current));
  });

  return (
    <>
      <PageHeader title="Book as of a date">
        <Space>
          <span>As of the end of</span>
          <DatePicker aria-label="As of" placeholder={asOf} onChange={(value) => value && setAsOf(value.format('YYYY-MM-DD'))} />
        </Space>
      </PageHeader>
      {failed ? (
        <Alert type="error" showIcon title={`The book could not be made: ${failed}`} />
      ) : !answer ? (
        <Progress percent={0} status="active" />
      ) : answer.status === 'running' ? (
        <Card>
          <Typography.Paragraph>
            Folding the log up to position {answer.position.toLocaleString('en-PH')} (the last event by the end of {asOf}, Manila)…
          </Typography.Paragraph>
          <Progress percent={answer.progress.of > 0 ? Math.floor((answer.progress.folded / answer.progress.of) * 100) : 0} status="active" aria-label="Folding progress" />
        </Card>
      ) : (
        <BookFigures book={answer.book} asOf={asOf} />
      )}
    </>
  );
}

function BookFigures({ book, asOf }: { book: Book; asOf: string }) {
  const { figures } = book;
  const byStatus = Object.entries(figures.loans.byStatus).map(([status, loans]) => ({ status, ...loans }));
  return (
    <>
      <Typography.Paragraph type="secondary">
        The book at the end of {asOf} (Manila): {book.events.toLocaleString('en-PH')} events up to position {book.position.toLocaleString('en-PH')}
        {book.lastEventAt ? `, the last recorded ${formatDateTime(book.lastEventAt)}` : ''}.
      </Typography.Paragraph>
      <section className="audit-book__figures" aria-label="Figures">
        <Card size="small">
          <Statistic
            title="Members"
            value={figures.members.total}
            suffix={
              <small>
                ({figures.members.active} active, {figures.members.suspended} suspended)
              </small>
            }
          />
        </Card>
        <Card size="small">
          <Statistic title="Outstanding principal" value={pesos(figures.loans.outstandingPrincipalCentavos)} />
        </Card>
        <Card size="small">
          <Statistic title="Wallet balances" value={pesos(figures.wallets.totalBalanceCentavos)} />
        </Card>
        <Card size="small">
          <Statistic title="Disbursed" value={pesos(figures.loans.disbursed.amountCentavos)} suffix={<small>({figures.loans.disbursed.count} loans)</small>} />
        </Card>
        <Card size="small">
          <Statistic title="Withdrawals pending" value={pesos(figures.withdrawals.pending.amountCentavos)} suffix={<small>({figures.withdrawals.pending.count})</small>} />
        </Card>
        <Card size="small">
          <Statistic title="Withdrawals paid" value={pesos(figures.withdrawals.paid.amountCentavos)} suffix={<small>({figures.withdrawals.paid.count})</small>} />
        </Card>
        <Card size="small">
          <Statistic title="Repayments received" value={pesos(figures.repayments.amountCentavos)} suffix={<small>({figures.repayments.count})</small>} />
        </Card>
        <Card size="small">
          <Statistic title="Balance adjustments (net)" value={pesos(figures.balanceAdjustments.netCentavos)} suffix={<small>({figures.balanceAdjustments.count})</small>} />
        </Card>
      </section>
      <div className="audit-book__grid">
        <Card size="small" title="The book at the end of each day">
          {book.series.length === 0 ? (
            <Empty description="Nothing had happened yet" />
          ) : (
            <Line data={bookChartPoints(book.series)} xField="date" yField="pesos" colorField="measure" height={300} point={{ shapeField: 'circle' }} axis={{ x: { title: false }, y: { title: false } }} />
          )}
        </Card>
        <Card size="small" title="Loans by status">
          <Table
            rowKey="status"
            size="small"
            pagination={false}
            dataSource={byStatus}
            locale={{ emptyText: 'No loans yet' }}
            columns={[
              { title: 'Status', dataIndex: 'status', render: (status: string) => statusLabel(status) },
              { title: 'Loans', dataIndex: 'count' },
              { title: 'Principal', dataIndex: 'principalCentavos', render: pesos },
              { title: 'Outstanding', dataIndex: 'outstandingPrincipalCentavos', render: pesos },
            ]}
          />
        </Card>
      </div>
    </>
  );
}

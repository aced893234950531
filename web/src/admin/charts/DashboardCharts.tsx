import { Column, Line, Pie } from '@ant-design/charts';
import { Alert, Button, Card, Empty, Skeleton } from 'antd';
import { formatPesoAmount } from '../../shared/money';
import { chartSeries, shareOf } from './chartSeries';
import { useDailyStats } from './useDailyStats';

const CHART_HEIGHT = 200;

/**
 * Axes of the per-day charts: every other day is labelled, counting back from today so today always
 * is (fourteen rotated dates in a third of the page could not be read), and counts get whole ticks
 * only (half an application means nothing).
 */
function dayAxes(days: number) {
  return {
    x: { title: false, labelAutoRotate: false, tickFilter: (_day: string, index: number) => (days - 1 - index) % 2 === 0 },
    y: { title: false, tickFilter: (count: number) => Number.isInteger(count) },
  };
}

/** Issue 7 item 5: a small overview above the members table, from the daily-stats read model, kept live. */
export default function DashboardCharts() {
  const { state, reload } = useDailyStats();

  if (state.status === 'failed') {
    return (
      <Alert
        className="admin-charts__failed"
        type="warning"
        showIcon
        title="Charts are unavailable"
        description={`Failed to fetch chart data: ${state.reason}`}
        action={<Button onClick={reload}>Retry</Button>}
        style={{ marginBottom: 16 }}
      />
    );
  }

  const series = state.status === 'ready' ? chartSeries(state.answer) : null;
  const total = series ? series.byStatus.reduce((sum, slice) => sum + slice.amount, 0) : 0;
  return (
    <section className="admin-charts" aria-label="Overview">
      <Card size="small" title="Loan applications per day">
        {series ? <Column data={series.loans} xField="day" yField="count" height={CHART_HEIGHT} axis={dayAxes(series.loans.length)} tooltip={{ items: [{ channel: 'y', name: 'Applications' }] }} /> : <Skeleton active />}
      </Card>
      <Card size="small" title="Withdrawal requests per day">
        {series ? (
          <Line
            data={series.withdrawals}
            xField="day"
            yField="count"
            height={CHART_HEIGHT}
            axis={dayAxes(series.withdrawals.length)}
            point={{ shapeField: 'circle' }}
            tooltip={{ items: [{ channel: 'y', name: 'Requests' }] }}
          />
        ) : (
          <Skeleton active />
        )}
      </Card>
      <Card size="small" title="Loan amount by status">
        {!series ? (
          <Skeleton active />
        ) : series.byStatus.length === 0 ? (
          <Empty description="No loans yet" image={Empty.PRESENTED_IMAGE_SIMPLE} />
        ) : (
          <>
            <Pie
              data={series.byStatus}
              angleField="amount"
              colorField="status"
              scale={{ color: { domain: series.byStatus.map((slice) => slice.status), range: series.byStatus.map((slice) => slice.colour) } }}
              height={CHART_HEIGHT}
              innerRadius={0.55}
              legend={{ color: { position: 'right' } }}
              // Each slice carries its share of the amount (issue 22, item 19); a label that would overlap another is left out, and its colour turns for contrast with the slice.
              label={{ text: (slice: { amount: number }) => shareOf(slice.amount, total), position: 'inside', fontSize: 11, fontWeight: 600, transform: [{ type: 'overlapHide' }, { type: 'contrastReverse' }] }}
              tooltip={{ items: [{ field: 'amount', name: 'Amount', valueFormatter: (value: number) => formatPesoAmount(value) }] }}
            />
            {/* The values themselves, not only on hover (issue 22, item 19). */}
            <ul className="admin-charts__values" aria-label="Loan amount by status">
              {series.byStatus.map((slice) => (
                <li key={slice.status}>
                  <span className="admin-charts__swatch" style={{ background: slice.colour }} aria-hidden="true" />
                  {slice.status}: {formatPesoAmount(slice.amount)} ({slice.count} {slice.count === 1 ? 'loan' : 'loans'})
                </li>
              ))}
            </ul>
          </>
        )}
      </Card>
    </section>
  );
}

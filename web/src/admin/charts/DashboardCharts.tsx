import { Column, Line, Pie } from '@ant-design/charts';
import { Alert, Button, Card, Empty, Skeleton } from 'antd';
import { formatPesoAmount } from '../../shared/money';
import { chartSeries } from './chartSeries';
import { useDailyStats } from './useDailyStats';

const CHART_HEIGHT = 200;

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
  return (
    <section className="admin-charts" aria-label="Overview">
      <Card size="small" title="Loan applications per day">
        {series ? <Column data={series.loans} xField="day" yField="count" height={CHART_HEIGHT} axis={{ y: { title: false } }} tooltip={{ items: [{ channel: 'y', name: 'Applications' }] }} /> : <Skeleton active />}
      </Card>
      <Card size="small" title="Withdrawal requests per day">
        {series ? <Line data={series.withdrawals} xField="day" yField="count" height={CHART_HEIGHT} point={{ shapeField: 'circle' }} tooltip={{ items: [{ channel: 'y', name: 'Requests' }] }} /> : <Skeleton active />}
      </Card>
      <Card size="small" title="Loan amount by status">
        {!series ? (
          <Skeleton active />
        ) : series.byStatus.length === 0 ? (
          <Empty description="No loans yet" image={Empty.PRESENTED_IMAGE_SIMPLE} />
        ) : (
          <Pie
            data={series.byStatus}
            angleField="amount"
            colorField="status"
            height={CHART_HEIGHT}
            innerRadius={0.55}
            legend={{ color: { position: 'right' } }}
            tooltip={{ items: [{ field: 'amount', name: 'Amount', valueFormatter: (value: number) => formatPesoAmount(value) }] }}
          />
        )}
      </Card>
    </section>
  );
}

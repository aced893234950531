import { Column } from '@ant-design/charts';
import { Alert, Card, Skeleton, Statistic } from 'antd';
import { formatPesoAmount } from '../../shared/money';
import { usePortfolio } from './usePortfolio';

/**
 * The book at a glance on the members page: outstanding principal, PAR30, repaid this month, and
 * outstanding principal by delinquency bucket as a chart — live with every loan change.
 */
export default function PortfolioCards() {
  const { portfolio, failed } = usePortfolio();
  if (failed) return <Alert type="warning" showIcon message="Failed to fetch the portfolio" />;
  if (!portfolio) return <Skeleton active />;
  return (
    <div className="admin-portfolio" data-testid="portfolio">
      <Card size="small">
        <Statistic title="Outstanding principal" value={formatPesoAmount(portfolio.outstandingPrincipal)} />
        <span className="admin-muted">
          {portfolio.activeLoans} active {portfolio.activeLoans === 1 ? 'loan' : 'loans'}
        </span>
      </Card>
      <Card size="small">
        <Statistic title="PAR30" value={`${(portfolio.par30 * 100).toFixed(1)} %`} />
        <span className="admin-muted">{formatPesoAmount(portfolio.portfolioAtRisk30)} 30+ days past due</span>
      </Card>
      <Card size="small">
        <Statistic title="Repaid this month" value={formatPesoAmount(portfolio.repaidThisMonth)} />
        <span className="admin-muted">
          {portfolio.month} (business date {portfolio.asOf})
        </span>
      </Card>
      <Card size="small" title="Outstanding by days past due" className="admin-portfolio__chart">
        <Column
          data={portfolio.buckets.map((bucket) => ({ bucket: bucket.bucket === 'current' ? 'Current' : `${bucket.bucket} days`, principal: bucket.outstandingPrincipal, loans: bucket.loans }))}
          xField="bucket"
          yField="principal"
          height={150}
          axis={{ x: { title: false }, y: { title: false, labelFormatter: (value: number) => `₱${(value / 1000).toFixed(0)}k` } }}
          tooltip={{
            items: [
              { channel: 'y', name: 'Outstanding', valueFormatter: (value: number) => formatPesoAmount(value) },
              { field: 'loans', name: 'Loans' },
            ],
          }}
        />
      </Card>
    </div>
  );
}

import type { PortfolioAnswer } from '@honeylend/contracts';
import { useCallback, useEffect, useState } from 'react';
import { apiRequest } from '../../shared/api';
import { useRefetchOn } from '../live/useRefetchOn';

/** GET /api/admin/portfolio, read again whenever a loan changes (a repayment, a charge, a closing). */
export function usePortfolio(): { portfolio: PortfolioAnswer | null; failed: boolean } {
  const [portfolio, setPortfolio] = useState<PortfolioAnswer | null>(null);
  const [failed, setFailed] = useState(false);
  const load = useCallback(() => {
    apiRequest<PortfolioAnswer>('/api/admin/portfolio')
      .then((answer) => {
        setPortfolio(answer);
        setFailed(false);
      })
      .catch(() => setFailed(true));
  }, []);
  useEffect(load, [load]);
  useRefetchOn(['loan.updated', 'resync'], load);
  return { portfolio, failed };
}

import type { ApprovalSettingsAnswer } from '@honeylend/contracts';
import { useEffect, useState } from 'react';
import { apiRequest } from '../../shared/api';

/**
 * The four-eyes settings as the server has them, for a dialog that must say whether its command
 * happens now or waits for a second admin; null until known (or when they could not be read).
 */
export function useApprovalSettings(enabled = true): ApprovalSettingsAnswer | null {
  const [settings, setSettings] = useState<ApprovalSettingsAnswer | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    apiRequest<ApprovalSettingsAnswer>('/api/admin/settings/approvals', { cache: 'no-store' }).then(
      (answer) => current && setSettings(answer),
      () => current && setSettings(null),
    );
    return () => {
      current = false;
    };
  }, [enabled]);
  return settings;
}

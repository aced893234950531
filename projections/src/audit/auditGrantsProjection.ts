import { UNMASK_MINUTES } from '@honeylend/contracts';
import type { Projection } from '../projection.js';

/**
 * rm:audit:unmasked:<auditor id>: member id → until when that auditor sees the member's personal
 * data unmasked (issue 16). The API reads it on every auditor request; the time comes from the
 * event, so a replay writes exactly the same grants.
 */
export const auditGrantsProjection: Projection = {
  name: 'audit-grants',
  async apply(event, tx, keys) {
    if (event.type !== 'AuditorUnmasked') return;
    const until = new Date(Date.parse(event.data.unmaskedAt) + UNMASK_MINUTES * 60_000).toISOString();
    tx.hset(keys.auditUnmasked(event.data.auditorId), { [event.data.memberId]: until });
  },
};

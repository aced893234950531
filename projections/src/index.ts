import type { Projection } from './projection.js';
import { adminsProjection } from './admins/adminsProjection.js';
import { loansProjection } from './loans/loansProjection.js';
import { membersProjection } from './members/membersProjection.js';
import { notificationsProjection } from './notifications/notificationsProjection.js';
import { withdrawalsProjection } from './withdrawals/withdrawalsProjection.js';
import { allowedIpsProjection } from './settings/allowedIpsProjection.js';
import { customLoanStatusesProjection } from './settings/customLoanStatusesProjection.js';
import { companyProjection } from './settings/companyProjection.js';
import { dailyStatsProjection } from './dailyStats/dailyStatsProjection.js';
import { auditGrantsProjection } from './audit/auditGrantsProjection.js';
import { approvalsProjection } from './approvals/approvalsProjection.js';

export * from './projection.js';
export * from './projectionRunner.js';
export * from './readModelTransaction.js';
export * from './rebuild.js';
export * from './readModelsOfAnotherStore.js';
export {
  membersProjection,
  adminsProjection,
  loansProjection,
  withdrawalsProjection,
  notificationsProjection,
  allowedIpsProjection,
  customLoanStatusesProjection,
  companyProjection,
  dailyStatsProjection,
  auditGrantsProjection,
  approvalsProjection,
};

/** Every read model, applied in this order to each event. */
export const allProjections: Projection[] = [
  membersProjection,
  adminsProjection,
  loansProjection,
  withdrawalsProjection,
  notificationsProjection,
  allowedIpsProjection,
  customLoanStatusesProjection,
  dailyStatsProjection,
  auditGrantsProjection,
  companyProjection,
  approvalsProjection,
];
export * from './projectionLag.js';
export { LeaderLease, LeadershipLost, type LeaderLeaseOptions } from './leaderLease.js';

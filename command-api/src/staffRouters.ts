import type Router from '@koa/router';
import type { ApiDeps } from './platform/context/context.js';
import { adminLoginAccess } from './staff/access/adminLoginAccess.js';
import { adminAccountRoutes } from './staff/admins/adminAccountRoutes.js';
import { allowedIpRoutes } from './staff/allowedIps/allowedIpRoutes.js';
import { staffAuditRoutes } from './audit/staffAuditRoutes.js';
import { adminLoanRoutes } from './lending/staff/adminLoanRoutes.js';
import { loanStatusRoutes } from './lending/statuses/loanStatusRoutes.js';
import { adminMemberRoutes, adminRegistrationRoute } from './members/staff/adminMemberRoutes.js';
import { adminNotificationRoutes } from './members/notifications/adminNotificationRoutes.js';
import { adminStatsRoutes } from './statistics/adminStatsRoutes.js';
import { adminWithdrawalRoutes } from './wallet/staff/adminWithdrawalRoutes.js';
import { adminLoanServicingRoutes, adminPortfolioRoutes } from './servicing/adminServicingRoutes.js';
import { approvalRoutes } from './approvals/approvalRoutes.js';
import { approvedCommands } from './approvedCommands.js';
import { staffPasswordResetRoutes } from './identity/staff/staffPasswordResetRoutes.js';

/**
 * The management panel's API (each capability's staff routes), in mounting order. The first two sit in front of routes of the
 * auth router (admin sign-in, registration by an admin) and must come before it; the members'
 * DELETE hands admin ids on to the admin accounts' routes, which must come after it.
 */
export function staffRouters(deps: ApiDeps): Router[] {
  return [
    adminLoginAccess(deps),
    adminRegistrationRoute(deps),
    adminMemberRoutes(deps),
    staffPasswordResetRoutes(deps),
    adminAccountRoutes(deps),
    adminLoanRoutes(deps),
    adminLoanServicingRoutes(deps),
    adminPortfolioRoutes(deps),
    loanStatusRoutes(deps),
    adminWithdrawalRoutes(deps),
    adminNotificationRoutes(deps),
    allowedIpRoutes(deps),
    adminStatsRoutes(deps),
    staffAuditRoutes(deps),
    ...approvalRoutes(deps, approvedCommands),
  ];
}

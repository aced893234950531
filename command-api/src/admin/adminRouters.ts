import type Router from '@koa/router';
import type { ApiDeps } from '../http/context.js';
import { adminLoginAccess } from './access/adminLoginAccess.js';
import { adminAccountRoutes } from './admins/adminAccountRoutes.js';
import { allowedIpRoutes } from './allowedIps/allowedIpRoutes.js';
import { auditRoutes } from './audit/auditRoutes.js';
import { adminLoanRoutes } from './loans/adminLoanRoutes.js';
import { loanStatusRoutes } from './loanStatuses/loanStatusRoutes.js';
import { adminMemberRoutes, adminRegistrationRoute } from './members/adminMemberRoutes.js';
import { adminNotificationRoutes } from './notifications/adminNotificationRoutes.js';
import { adminStatsRoutes } from './stats/adminStatsRoutes.js';
import { adminWithdrawalRoutes } from './withdrawals/adminWithdrawalRoutes.js';
import { adminLoanServicingRoutes, adminPortfolioRoutes } from '../servicing/adminServicingRoutes.js';
import { approvalRoutes } from '../approvals/approvalRoutes.js';

/**
 * The management panel's API, in mounting order. The first two sit in front of routes of the
 * auth router (admin sign-in, registration by an admin) and must come before it; the members'
 * DELETE hands admin ids on to the admin accounts' routes, which must come after it.
 */
export function adminRouters(deps: ApiDeps): Router[] {
  return [
    adminLoginAccess(deps),
    adminRegistrationRoute(deps),
    adminMemberRoutes(deps),
    adminAccountRoutes(deps),
    adminLoanRoutes(deps),
    adminLoanServicingRoutes(deps),
    adminPortfolioRoutes(deps),
    loanStatusRoutes(deps),
    adminWithdrawalRoutes(deps),
    adminNotificationRoutes(deps),
    allowedIpRoutes(deps),
    adminStatsRoutes(deps),
    auditRoutes(deps),
    ...approvalRoutes(deps),
  ];
}

import type { ApprovedCommandRunners } from './approvals/fourEyes.js';
import { approvedLoanCommands } from './lending/staff/approvedLoanCommands.js';
import { approvedMemberCommands } from './members/staff/approvedMemberCommands.js';
import { approvedServicingCommands } from './servicing/approvedServicingCommands.js';
import { approvedWithdrawalCommands } from './wallet/staff/approvedWithdrawalCommands.js';

/** Every command four eyes may hold, by kind, from the capability that owns it. */
export const approvedCommands: ApprovedCommandRunners = {
  ...approvedMemberCommands,
  ...approvedWithdrawalCommands,
  ...approvedLoanCommands,
  ...approvedServicingCommands,
};

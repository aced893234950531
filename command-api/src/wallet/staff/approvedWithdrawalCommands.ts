import type { ApprovedCommandRunners } from '../../approvals/fourEyes.js';
import { ApiError } from '../../platform/errors/apiError.js';
import { decideWithdrawal } from '../decideWithdrawal.js';

/** The withdrawal commands four eyes may hold, as they run once a second admin approves them. */
export const approvedWithdrawalCommands: Pick<ApprovedCommandRunners, 'withdrawal_completion'> = {
  withdrawal_completion: async (deps, ctx, { command }, checkerId) => {
    const doc = await deps.readModels.withdrawal(command.withdrawalId);
    if (!doc) throw new ApiError(404, 'WITHDRAWAL_NOT_FOUND', 'Withdrawal not found');
    return decideWithdrawal(deps, ctx, checkerId, doc, {
      status: 'completed',
      processedAt: command.processedAt ?? (await deps.businessClock.businessNow()).toISOString(),
      payoutReference: command.payoutReference ?? undefined,
    });
  },
};

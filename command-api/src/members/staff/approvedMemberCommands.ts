import type { ApprovedCommandRunners } from '../../approvals/fourEyes.js';
import { adjustBalance, updateMember } from './adminMemberCommands.js';

/** The member commands four eyes may hold, as they run once a second admin approves them. */
export const approvedMemberCommands: Pick<ApprovedCommandRunners, 'balance_adjustment' | 'phone_change'> = {
  balance_adjustment: async (deps, ctx, { command, approvalId }, checkerId) =>
    (await adjustBalance(deps, ctx, checkerId, command.memberId, { amountCentavos: command.amountCentavos, reason: command.reason }, approvalId)).position,
  phone_change: async (deps, ctx, { command, makerId }, checkerId) => {
    // The maker (the main admin: only they change a member's phone) asked for it; the checker lets it happen.
    const outcome = await updateMember(deps, ctx, checkerId, command.memberId, command.update, { id: makerId, role: 'superadmin' });
    if (outcome.suspended) await deps.revokeSessions?.(command.memberId, 'suspended');
    return outcome.position;
  },
};

import type { Context } from 'koa';
import { formatPesos, maskAccountNumber, streams, type WithdrawalDoc } from '@honeylend/contracts';
import { handleCommand } from '../platform/commands/commandHandler.js';
import { metadataOf, type ApiDeps } from '../platform/context/context.js';
import { memberDecider } from '../members/decide.js';
import { notifyMember } from '../members/notifications/notifyMember.js';

export interface WithdrawalDecision {
  status: 'completed' | 'rejected';
  /** When the money was sent (completed) or the request refused (rejected). */
  processedAt: string;
  reason?: string | undefined;
  payoutReference?: string | undefined;
}

/**
 * A withdrawal completed (paid out) or rejected (the held amount returns to the wallet), decided on
 * the member's stream where the money lives, so a second decision — or two admins deciding at
 * once — is refused with 409; then the member is told. Run by the route, or by a second admin's
 * approval of a completion that needed one (four eyes).
 */
export async function decideWithdrawal(deps: ApiDeps, ctx: Context, adminId: string, doc: WithdrawalDoc, decision: WithdrawalDecision): Promise<number | null> {
  const { memberId, id: withdrawalId } = doc;
  // The business clock: an admin who changed the member's identity is kept from paying out for 24 hours of it.
  const now = (await deps.businessClock.businessNow()).toISOString();
  const command =
    decision.status === 'completed'
      ? { type: 'CompleteWithdrawal' as const, memberId, withdrawalId, adminId, processedAt: decision.processedAt, now, ...(decision.payoutReference ? { payoutReference: decision.payoutReference } : {}) }
      : { type: 'RejectWithdrawal' as const, memberId, withdrawalId, reason: decision.reason || null, now: decision.processedAt };
  const result = await handleCommand(deps.store, streams.member(memberId), memberDecider, command, metadataOf(ctx, adminId));
  const amount = formatPesos(doc.amountCentavos);
  const notice = await notifyMember(deps, ctx, adminId, {
    memberId,
    type: 'withdrawal_update',
    title: decision.status === 'completed' ? 'Withdrawal sent' : 'Withdrawal rejected',
    message:
      decision.status === 'completed'
        ? `Your withdrawal ${doc.withdrawalNumber} of ${amount} has been sent to ${doc.bankName} ${maskAccountNumber(doc.bankAccountNumber)}.${decision.payoutReference ? ` Reference: ${decision.payoutReference}.` : ''}`
        : // The reason's own closing stop is dropped, so the sentence never reads "details.. The amount".
          `Your withdrawal ${doc.withdrawalNumber} of ${amount} was rejected${decision.reason ? `: ${decision.reason.replace(/[.!?\s]+$/, '')}` : ''}. The amount is back in your wallet.`,
  });
  return notice.position ?? result.position;
}

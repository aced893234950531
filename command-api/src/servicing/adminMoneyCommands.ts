import { randomUUID } from 'node:crypto';
import { findRepayment, streams } from '@honeylend/contracts';
import type { EventMetadata } from '@honeylend/eventstore';
import { handleCommand } from '../platform/commands/commandHandler.js';
import type { ApiDeps } from '../platform/context/context.js';
import { memberDecider } from '../members/decide.js';
import { latest, loanAfter, onLoan, recordOutsideRepayment, type Position, type Receipt } from '../lending/loanAccountCommands.js';
import type { AdminRepaymentBody, PenaltyWaiverBody, ReversalBody } from './servicingBodies.js';

/*
 * The admins' money commands on a loan, each a plain function of the validated body and the actor
 * (the event metadata names them), apart from its route: a second admin's approval (maker-checker)
 * can run the very same function later with the body it recorded.
 */

/** Money that came through GCash, Maya, a bank or the counter; the value date may be in the past (a back-dated payment). */
export function recordRepayment(deps: ApiDeps, actor: EventMetadata, loanId: string, body: AdminRepaymentBody): Promise<{ receipt: Receipt; position: Position }> {
  return recordOutsideRepayment(deps, actor, loanId, {
    amountCentavos: body.amount,
    channel: body.channel,
    source: 'admin',
    reference: body.reference,
    duplicateReferenceReason: body.duplicateReferenceReason,
    valueDate: body.valueDate,
  });
}

/**
 * A repayment that did not really happen (a bounced cheque, a mistaken entry) stops counting: the
 * fold runs again without it. A wallet repayment's money goes back to the wallet; a retry of a
 * reversal finishes that refund.
 */
export async function reverseRepayment(deps: ApiDeps, actor: EventMetadata, loanId: string, repaymentId: string, body: ReversalBody, fourEyes?: 'required' | { grantedAmountCentavos: number }): Promise<Position> {
  const today = await deps.businessClock.today();
  const result = await onLoan(deps, loanId, { type: 'ReverseRepayment', loanId, repaymentId, reason: body.reason, fourEyes, businessDate: today, now: deps.now().toISOString() }, actor);
  const loan = loanAfter(result);
  const reversed = findRepayment(loan.account!, repaymentId)!;
  if (reversed.source !== 'wallet') return result.position;
  const refunded = await handleCommand(
    deps.store,
    streams.member(loan.memberId),
    memberDecider,
    { type: 'RefundWalletRepayment', memberId: loan.memberId, repaymentId, reason: 'reversed', now: deps.now().toISOString() },
    actor,
  );
  return latest(result.position, refunded.position);
}

/** Takes unpaid late charges off (never more than are unpaid), with the reason. */
export async function waivePenalty(deps: ApiDeps, actor: EventMetadata, loanId: string, body: PenaltyWaiverBody, waiverId: string = randomUUID(), fourEyes?: 'required'): Promise<Position> {
  const today = await deps.businessClock.today();
  const result = await onLoan(deps, loanId, { type: 'WaivePenalty', loanId, waiverId, amountCentavos: body.amount, reason: body.reason, fourEyes, businessDate: today, now: deps.now().toISOString() }, actor);
  return result.position;
}

import { streams, type BusinessDate } from '@honeylend/contracts';
import type { EventMetadata } from '@honeylend/eventstore';
import type { KnownMember } from '../members/memberOnWriteSide.js';
import { handleCommand } from '../platform/commands/commandHandler.js';
import type { ApiDeps } from '../platform/context/context.js';
import { loanDecider } from '../lending/decide.js';
import type { ExistingLoan } from '../lending/loan.js';
import { memberDecider } from '../members/decide.js';
import type { ExistingMember } from '../members/member.js';
import { closeCompletedApplication, isRefusal, latest, loanAfter, loanForCheck, LOAN_NOT_FOUND, onLoan, receiptOf, type Position, type Receipt } from '../lending/loanAccountCommands.js';

export interface WalletRepayment {
  memberId: string;
  loanId: string;
  /** Made from the Idempotency-Key when there is one, so a retry resumes the same repayment. */
  repaymentId: string;
  amountCentavos: number;
  /** The member's stream as the caller just read it (memberOnWriteSide): the debit decides on it instead of reading it again. */
  member?: KnownMember;
}

/**
 * A wallet repayment spans two streams: the money leaves the wallet on the member's stream
 * (WalletRepaymentDebited, with the revision read, so the wallet never goes below zero), then
 * arrives on the loan's (RepaymentReceived), both under one repayment id. A crash between the two
 * leaves a debit the loan has not seen; the member's next wallet repayment to that loan finishes
 * it first (records it, or declines and refunds it), and a retry with the same id resumes it. The
 * loan's stream settles which: a repayment id is received or declined there, never both, and only a
 * declined one is refunded. So no retry debits twice, and no debit is lost.
 */
export async function payFromWallet(deps: ApiDeps, metadata: EventMetadata, payment: WalletRepayment): Promise<{ receipt: Receipt; position: Position }> {
  const { memberId, loanId, repaymentId, amountCentavos } = payment;
  // Checked on the read model (one round trip with the business date); the loan's stream decides again when the repayment is appended.
  const [today, known] = await Promise.all([deps.businessClock.today(), loanForCheck(deps, loanId)]);
  const loan = known.loan;
  if (loan.memberId !== memberId) throw LOAN_NOT_FOUND();
  const record = (id: string, amount: number) =>
    ({ type: 'RecordRepayment', loanId, repaymentId: id, amountCentavos: amount, channel: 'wallet', source: 'wallet', reference: id, valueDate: today, businessDate: today, now: deps.now().toISOString() }) as const;
  // Refused amounts (above the payoff, a closed loan) never touch the wallet; an id already received is answered as it was.
  if (loanDecider.decide(record(repaymentId, amountCentavos), loan).length === 0) return { receipt: receiptOf(loan, repaymentId), position: null };

  const debited = await handleCommand(
    deps.store,
    streams.member(memberId),
    memberDecider,
    { type: 'DebitWalletRepayment', memberId, loanId, repaymentId, amountCentavos, now: deps.now().toISOString() },
    metadata,
    payment.member ? { known: payment.member } : {},
  );
  let position = await finishUnsettledDebits(deps, metadata, debited.state as ExistingMember, loan, today, repaymentId);
  try {
    // Decided on the document read above and appended expecting its revision: no read of the loan's stream unless it moved since.
    const received = await onLoan(deps, loanId, record(repaymentId, amountCentavos), metadata, known);
    const after = loanAfter(received);
    position = latest(position, received.position, debited.position, await closeCompletedApplication(deps, after, metadata));
    return { receipt: receiptOf(after, repaymentId), position };
  } catch (error) {
    if (isRefusal(error)) await declineAndRefund(deps, metadata, memberId, loanId, repaymentId, amountCentavos, error.message);
    throw error;
  }
}

/** The loan refused a debited repayment: declined on the loan's stream first, then refunded, so it is never also received. */
async function declineAndRefund(deps: ApiDeps, metadata: EventMetadata, memberId: string, loanId: string, repaymentId: string, amountCentavos: number, reason: string): Promise<Position> {
  const declined = await onLoan(deps, loanId, { type: 'DeclineWalletRepayment', loanId, repaymentId, amountCentavos, reason, now: deps.now().toISOString() }, metadata);
  const loan = loanAfter(declined);
  if (!loan.account?.declinedRepaymentIds.includes(repaymentId)) return declined.position;
  const refunded = await handleCommand(deps.store, streams.member(memberId), memberDecider, { type: 'RefundWalletRepayment', memberId, repaymentId, reason: 'refused', now: deps.now().toISOString() }, metadata);
  return latest(declined.position, refunded.position);
}

/** Debits of this member for this loan that the loan has neither received nor declined (a writer died in between). */
async function finishUnsettledDebits(deps: ApiDeps, metadata: EventMetadata, member: ExistingMember, loan: ExistingLoan, today: BusinessDate, current: string): Promise<Position> {
  const account = loan.account;
  if (!account) return null;
  const settled = new Set([...account.transactions.map((tx) => (tx.kind === 'repayment' ? tx.repaymentId : '')), ...account.declinedRepaymentIds]);
  let position: Position = null;
  for (const [repaymentId, debit] of member.walletRepayments) {
    if (repaymentId === current || debit.loanId !== loan.loanId || debit.refunded || settled.has(repaymentId)) continue;
    try {
      const received = await onLoan(
        deps,
        loan.loanId,
        {
          type: 'RecordRepayment',
          loanId: loan.loanId,
          repaymentId,
          amountCentavos: debit.amountCentavos,
          channel: 'wallet',
          source: 'wallet',
          reference: repaymentId,
          valueDate: today,
          businessDate: today,
          now: deps.now().toISOString(),
        },
        metadata,
      );
      position = latest(position, received.position);
    } catch (error) {
      if (!isRefusal(error)) throw error;
      position = latest(position, await declineAndRefund(deps, metadata, member.memberId, loan.loanId, repaymentId, debit.amountCentavos, error.message));
    }
  }
  return position;
}

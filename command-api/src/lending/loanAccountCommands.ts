import { randomUUID } from 'node:crypto';
import { allocationAnswer, findRepayment, findRepaymentByReference, loanPosition, streams, type BusinessDate, type RepaymentChannel, type RepaymentReceiptAnswer } from '@honeylend/contracts';
import type { EventMetadata } from '@honeylend/eventstore';
import { handleCommand, loadState, type HandleResult } from '../platform/commands/commandHandler.js';
import { DomainError } from '../platform/commands/decider.js';
import { ApiError } from '../platform/errors/apiError.js';
import type { ApiDeps } from '../platform/context/context.js';
import { loanDecider, type LoanCommand } from './decide.js';
import type { ExistingLoan, LoanEvent, LoanState } from './loan.js';
import { memberDecider } from '../members/decide.js';

export type Position = number | null;
export const latest = (...positions: Position[]): Position => positions.reduce<Position>((max, position) => (position !== null && (max === null || position > max) ? position : max), null);

export const LOAN_NOT_FOUND = () => new ApiError(404, 'LOAN_NOT_FOUND', 'Loan not found');

/**
 * Runs one command on a loan's stream; `known` is the loan as a read model showed it at a revision
 * of the stream (decided on first, appended expecting that revision, read afresh if it was stale).
 */
export function onLoan(deps: ApiDeps, loanId: string, command: LoanCommand, metadata: EventMetadata, known?: KnownLoan): Promise<HandleResult<LoanState, LoanEvent>> {
  return handleCommand(deps.store, streams.loan(loanId), loanDecider, command, metadata, known?.revision === null || !known ? {} : { known: { state: known.loan, revision: known.revision } });
}

/** A loan as its read-model document showed it, with the revision of its stream the document reflects (null: not recorded). */
export interface KnownLoan {
  loan: ExistingLoan;
  revision: number | null;
}

export async function loadLoan(deps: ApiDeps, loanId: string): Promise<ExistingLoan> {
  const { state } = await loadState(deps.store, streams.loan(loanId), loanDecider);
  if (!state.exists) throw LOAN_NOT_FOUND();
  return state;
}

/**
 * The loan as its read-model document shows it (no stream read), for checks made before a write
 * that the write itself decides again on the stream; the stream when the document has no account yet.
 */
export async function loanForCheck(deps: ApiDeps, loanId: string): Promise<KnownLoan> {
  const doc = await deps.readModels.loan(loanId);
  if (!doc?.account) return { loan: await loadLoan(deps, loanId), revision: null };
  const { id, memberId, loanNumber, amountCentavos, termMonths, monthlyRateBps, createdAt: appliedAt, status, account } = doc;
  const acceptedTerms = doc.termsAcceptedAt && doc.termsHash ? { acceptedAt: doc.termsAcceptedAt, statementHash: doc.termsHash, businessDate: doc.termsAcceptedOn ?? null } : null;
  // The document is the loan decider's state at streamRevision: the loans projection folds every loan event as evolveLoan does.
  return {
    loan: { exists: true, loanId: id, memberId, loanNumber, amountCentavos, termMonths, monthlyRateBps, appliedAt, status, approvedAt: doc.approvedAt ?? null, acceptedTerms, account },
    revision: doc.streamRevision ?? null,
  };
}

/** The loan as the command left it; a loan deleted meanwhile is not found. */
export function loanAfter(result: HandleResult<LoanState, LoanEvent>): ExistingLoan {
  if (!result.state.exists) throw LOAN_NOT_FOUND();
  return result.state;
}

/**
 * A loan paid off frees its borrower to apply again: its application closes on the member's
 * stream. Idempotent, so whoever sees the loan completed (the payment that closed it, a retry) may run it.
 */
export async function closeCompletedApplication(deps: ApiDeps, loan: ExistingLoan, metadata: EventMetadata): Promise<Position> {
  if (loan.status !== 'completed') return null;
  const result = await handleCommand(
    deps.store,
    streams.member(loan.memberId),
    memberDecider,
    { type: 'CloseLoanApplication', memberId: loan.memberId, loanId: loan.loanId, closing: 'completed', now: deps.now().toISOString() },
    metadata,
  );
  return result.position;
}

/** What a repayment's answer carries: its receipt and how the fold allocated it. */
export type Receipt = RepaymentReceiptAnswer;

export function receiptOf(loan: ExistingLoan, repaymentId: string): Receipt {
  const account = loan.account;
  const recorded = account && findRepayment(account, repaymentId);
  if (!account || !recorded) throw new ApiError(404, 'REPAYMENT_NOT_FOUND', 'Repayment not found');
  const folded = loanPosition(account).repayments.find((repayment) => repayment.repaymentId === repaymentId)!;
  return {
    id: repaymentId,
    receiptNumber: recorded.receiptNumber,
    amount: recorded.amountCentavos / 100,
    valueDate: recorded.valueDate,
    allocation: allocationAnswer(folded.allocation),
  };
}

/** A refusal by the loan's decider, as opposed to an outage: the caller may decline and refund. */
export const isRefusal = (error: unknown): error is DomainError => error instanceof DomainError;

/** Money reported from outside the wallet (by an admin or the payment provider), named by its channel's reference. */
export interface OutsideRepayment {
  amountCentavos: number;
  channel: Exclude<RepaymentChannel, 'wallet'>;
  source: 'admin' | 'provider';
  reference: string;
  /** An admin's reason for recording a reference the loan already has (see the loan decider). */
  duplicateReferenceReason?: string;
  valueDate: BusinessDate;
}

/**
 * Records an outside repayment on the loan, closes the borrower's application when it paid the loan
 * off, and answers its receipt — the first receipt when the reference was already recorded.
 */
export async function recordOutsideRepayment(deps: ApiDeps, actor: EventMetadata, loanId: string, repayment: OutsideRepayment): Promise<{ receipt: Receipt; position: Position }> {
  const businessDate = await deps.businessClock.today();
  const repaymentId = randomUUID();
  const result = await onLoan(deps, loanId, { type: 'RecordRepayment', loanId, repaymentId, ...repayment, businessDate, now: deps.now().toISOString() }, actor);
  const loan = loanAfter(result);
  // Recorded now, or the replay of one recorded before under this channel and reference.
  const recorded = findRepayment(loan.account!, repaymentId) ?? findRepaymentByReference(loan.account!, repayment.channel, repayment.reference)!;
  return { receipt: receiptOf(loan, recorded.repaymentId), position: latest(result.position, await closeCompletedApplication(deps, loan, actor)) };
}

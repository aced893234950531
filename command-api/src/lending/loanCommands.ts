import type { Context } from 'koa';
import { closesApplication, streams } from '@honeylend/contracts';
import type { EventMetadata } from '@honeylend/eventstore';
import { handleCommand, loadState } from '../platform/commands/commandHandler.js';
import { ApiError } from '../platform/errors/apiError.js';
import { metadataOf, type ApiDeps } from '../platform/context/context.js';
import { defaultStatusMessage, defaultStatusTitle } from './borrowerMessages.js';
import { loanDecider, type LoanTerms } from './decide.js';
import type { ExistingLoan } from './loan.js';
import { memberDecider } from '../members/decide.js';
import { customLoanStatusesDecider } from './statuses/customLoanStatuses.js';
import { notifyMember } from '../members/notifications/notifyMember.js';
import type { LoanStatusUpdate } from './staff/adminLoanBodies.js';

type Position = number | null;
const latest = (...positions: Position[]) => positions.reduce<Position>((max, position) => (position !== null && (max === null || position > max) ? position : max), null);

/** A loan that went through approval (and, since RA 3765 acceptance, the borrower's acceptance) has had its principal paid into the wallet. */
const APPROVED_OR_LATER = new Set(['approved', 'active', 'completed']);

/**
 * The loan's side effects on the member's stream, each idempotent per loan so that a retry, or
 * two admins approving at the same moment, has them happen exactly once: the principal reaches
 * the wallet once the loan is approved and the borrower accepted its Disclosure Statement (RA 3765),
 * then the loan's account opens (active, with its schedule); a denied, completed or lapsed loan
 * stops being the member's open application. Approving again an approved loan whose writer died
 * part-way, or accepting again, finishes what was left.
 */
export async function settleLoanMoney(deps: ApiDeps, metadata: EventMetadata, loan: ExistingLoan, now: string): Promise<Position> {
  const { loanId, memberId } = loan;
  let position: Position = null;
  // An approval awaiting the borrower's acceptance moves no money yet.
  const disbursable = APPROVED_OR_LATER.has(loan.status) && (loan.status !== 'approved' || loan.acceptedTerms !== null);
  if (disbursable) {
    const result = await handleCommand(deps.store, streams.member(memberId), memberDecider, { type: 'DisburseLoan', memberId, loanId, amountCentavos: loan.amountCentavos, now }, metadata);
    position = latest(position, result.position);
    // Disbursement opens the account: the loan is active, its schedule fixed (design §9). Once only.
    const businessDate = await deps.businessClock.today();
    const opened = await handleCommand(deps.store, streams.loan(loanId), loanDecider, { type: 'OpenLoanAccount', loanId, lateCharge: deps.servicing.lateCharge, businessDate, now }, metadata);
    position = latest(position, opened.position);
  }
  if (closesApplication(loan.status)) {
    const result = await handleCommand(deps.store, streams.member(memberId), memberDecider, { type: 'CloseLoanApplication', memberId, loanId, closing: loan.status, now }, metadata);
    position = latest(position, result.position);
  }
  return position;
}

/**
 * Moves a loan along the status machine (@honeylend/contracts loanStatusRules). The loan's stream decides first;
 * its money and its member's open-application flag follow on the member's stream; the borrower is
 * told when the admin asks to, and always for account_issue (they must learn what to fix).
 */
export async function changeLoanStatus(
  deps: ApiDeps,
  ctx: Context,
  adminId: string,
  loanId: string,
  update: LoanStatusUpdate & { status: string },
  fourEyes?: { thresholdCentavos: number } | { grantedTerms: LoanTerms },
): Promise<Position> {
  const notify: { title?: string; message?: string } | null = typeof update.notify === 'object' ? update.notify : update.notify ? {} : null;
  const metadata = metadataOf(ctx, adminId);
  // The business clock: an approval's 7 days to accept are counted from here, on the date the lapse is judged by.
  const now = (await deps.businessClock.businessNow()).toISOString();
  const { state: settings } = await loadState(deps.store, streams.loanStatuses, customLoanStatusesDecider);
  const statusMessage = update.message ?? notify?.message ?? null;
  const result = await handleCommand(
    deps.store,
    streams.loan(loanId),
    loanDecider,
    { type: 'ChangeLoanStatus', loanId, to: update.status, message: statusMessage, customStatuses: settings.statuses, ...(fourEyes ? { fourEyes } : {}), now },
    metadata,
  );
  const loan = result.state;
  if (!loan.exists) throw new ApiError(404, 'LOAN_NOT_FOUND', 'Loan not found');
  let position = latest(result.position, await settleLoanMoney(deps, metadata, loan, now));
  const changed = result.events.length > 0;
  if (changed && (notify || loan.status === 'account_issue')) {
    const notice = await notifyMember(deps, ctx, adminId, {
      memberId: loan.memberId,
      title: notify?.title ?? defaultStatusTitle(loan.loanNumber),
      message: notify?.message ?? statusMessage ?? defaultStatusMessage(loan.status, loan.loanNumber),
      type: 'loan_update',
    });
    position = latest(position, notice.position);
  }
  return position;
}

export async function changeLoanTerms(deps: ApiDeps, ctx: Context, adminId: string, loanId: string, terms: { amountCentavos?: number; termMonths?: number }): Promise<Position> {
  const result = await handleCommand(deps.store, streams.loan(loanId), loanDecider, { type: 'ChangeLoanTerms', loanId, ...terms, now: deps.now().toISOString() }, metadataOf(ctx, adminId));
  return result.position;
}

/** Removes a pending or denied application, then frees the member to apply again; a retry finishes a half-done deletion. */
export async function deleteLoan(deps: ApiDeps, ctx: Context, adminId: string, loanId: string): Promise<Position> {
  const metadata = metadataOf(ctx, adminId);
  const now = deps.now().toISOString();
  const result = await handleCommand(deps.store, streams.loan(loanId), loanDecider, { type: 'DeleteLoan', loanId, now }, metadata);
  const loan = result.state;
  if (loan.exists || !loan.deleted) throw new ApiError(404, 'LOAN_NOT_FOUND', 'Loan not found');
  const closed = await handleCommand(deps.store, streams.member(loan.memberId), memberDecider, { type: 'CloseLoanApplication', memberId: loan.memberId, loanId, closing: 'deleted', now }, metadata);
  return latest(result.position, closed.position);
}

import { createHash } from 'node:crypto';
import { acceptanceDeadline, disbursementSchedule, disclosureStatementText, type BusinessDate, type DisclosureAnswer, type LoanAccount, type LoanDoc } from '@honeylend/contracts';
import { readCompanyDetails } from '../../company/companyRoutes.js';
import { ApiError } from '../../platform/errors/apiError.js';
import type { ApiDeps } from '../../platform/context/context.js';
import type { ExistingLoan } from '../loan.js';

/** The loan facts a statement is written from: the stream's state or the read model's document. */
export interface DisclosedLoan {
  loanId: string;
  memberId: string;
  loanNumber: string;
  amountCentavos: number;
  termMonths: number;
  monthlyRateBps: number;
  status: string;
  approvedAt: string | null;
  acceptedAt: string | null;
  /** The business date of the acceptance (null before it, and on acceptances that did not record it). */
  acceptedOn: BusinessDate | null;
  /** The open account: its schedule is the one that applies. */
  account: Pick<LoanAccount, 'openedOn' | 'schedule'> | null;
}

export const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export function disclosedLoanOf(doc: LoanDoc): DisclosedLoan {
  return {
    loanId: doc.id,
    memberId: doc.memberId,
    loanNumber: doc.loanNumber,
    amountCentavos: doc.amountCentavos,
    termMonths: doc.termMonths,
    monthlyRateBps: doc.monthlyRateBps,
    status: doc.status,
    // A loan disbursed before acceptance existed was approved when its account opened.
    approvedAt: doc.approvedAt ?? (doc.account ? `${doc.account.openedOn}T00:00:00.000+08:00` : null),
    acceptedAt: doc.termsAcceptedAt ?? null,
    acceptedOn: doc.termsAcceptedOn ?? null,
    account: doc.account ?? null,
  };
}

export function disclosedLoanOfState(loan: ExistingLoan): DisclosedLoan {
  const { loanId, memberId, loanNumber, amountCentavos, termMonths, monthlyRateBps, status } = loan;
  return {
    loanId,
    memberId,
    loanNumber,
    amountCentavos,
    termMonths,
    monthlyRateBps,
    status,
    approvedAt: loan.approvedAt ?? (loan.account ? `${loan.account.openedOn}T00:00:00.000+08:00` : null),
    acceptedAt: loan.acceptedTerms?.acceptedAt ?? null,
    acceptedOn: loan.acceptedTerms?.businessDate ?? null,
    account: loan.account,
  };
}

const FINAL_STATUSES = new Set(['approved', 'active', 'completed']);

/**
 * The schedule the statement shows and from when: the open account's own; once accepted, the one
 * counted from the acceptance's date; while the approval waits, the one an acceptance on `today`
 * (the business date) would fix — what the borrower accepting now consents to.
 */
function scheduleOf(loan: DisclosedLoan, today: BusinessDate) {
  if (loan.account) return { disbursement: { on: loan.account.openedOn, accepted: true }, schedule: loan.account.schedule };
  const on = loan.acceptedOn ?? today;
  const schedule = disbursementSchedule({ principalCentavos: loan.amountCentavos, monthlyRateBps: loan.monthlyRateBps, termMonths: loan.termMonths }, on);
  return { disbursement: { on, accepted: loan.acceptedAt !== null }, schedule };
}

/**
 * The final Disclosure Statement (RA 3765) of an approved loan as it reads on the business date
 * `today`, with its SHA-256: the borrower's name, the lender as published, the late-charge terms new
 * accounts open with, the schedule an acceptance today would fix. Before approval the terms are not
 * final; after a lapse there is nothing to accept.
 */
export async function disclosureOf(deps: ApiDeps, loan: DisclosedLoan, today: BusinessDate): Promise<DisclosureAnswer> {
  if (loan.status === 'lapsed') throw new ApiError(409, 'APPROVAL_LAPSED', 'This approval lapsed: its Disclosure Statement was not accepted within 7 days.');
  if (!FINAL_STATUSES.has(loan.status) || !loan.approvedAt) {
    throw new ApiError(409, 'LOAN_NOT_APPROVED', 'The Disclosure Statement is final once the loan is approved; this loan is not approved yet.', { currentStatus: loan.status });
  }
  const [member, lender] = await Promise.all([deps.readModels.member(loan.memberId), readCompanyDetails(deps)]);
  const statement = disclosureStatementText({
    loanId: loan.loanId,
    loanNumber: loan.loanNumber,
    borrowerName: member?.fullName || 'the borrower',
    principalCentavos: loan.amountCentavos,
    monthlyRateBps: loan.monthlyRateBps,
    termMonths: loan.termMonths,
    approvedAt: loan.approvedAt,
    ...scheduleOf(loan, today),
    lateCharge: deps.servicing.lateCharge,
    lender,
  });
  return { statement, hash: sha256Hex(statement), acceptedAt: loan.acceptedAt, acceptBy: acceptanceDeadline(loan.approvedAt) };
}

import { createHash } from 'node:crypto';
import { acceptanceDeadline, disclosureStatementText, type DisclosureAnswer, type LoanDoc } from '@honeylend/contracts';
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
  appliedAt: string;
  status: string;
  approvedAt: string | null;
  acceptedAt: string | null;
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
    appliedAt: doc.createdAt,
    status: doc.status,
    // A loan disbursed before acceptance existed was approved when its account opened.
    approvedAt: doc.approvedAt ?? (doc.account ? `${doc.account.openedOn}T00:00:00.000+08:00` : null),
    acceptedAt: doc.termsAcceptedAt ?? null,
  };
}

export function disclosedLoanOfState(loan: ExistingLoan): DisclosedLoan {
  const { loanId, memberId, loanNumber, amountCentavos, termMonths, monthlyRateBps, appliedAt, status } = loan;
  return {
    loanId,
    memberId,
    loanNumber,
    amountCentavos,
    termMonths,
    monthlyRateBps,
    appliedAt,
    status,
    approvedAt: loan.approvedAt ?? (loan.account ? `${loan.account.openedOn}T00:00:00.000+08:00` : null),
    acceptedAt: loan.acceptedTerms?.acceptedAt ?? null,
  };
}

const FINAL_STATUSES = new Set(['approved', 'active', 'completed']);

/**
 * The final Disclosure Statement (RA 3765) of an approved loan as it reads now, with its SHA-256:
 * the borrower's name, the lender as published, the late-charge terms new accounts open with.
 * Before approval the terms are not final; after a lapse there is nothing to accept.
 */
export async function disclosureOf(deps: ApiDeps, loan: DisclosedLoan): Promise<DisclosureAnswer> {
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
    appliedAt: loan.appliedAt,
    approvedAt: loan.approvedAt,
    lateCharge: deps.servicing.lateCharge,
    lender,
  });
  return { statement, hash: sha256Hex(statement), acceptedAt: loan.acceptedAt, acceptBy: acceptanceDeadline(loan.approvedAt) };
}

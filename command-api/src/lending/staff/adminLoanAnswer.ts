import { toAdminLoanAnswer, toLoanAnswer, type AdminLoanAnswer, type LoanDoc, type MemberDoc } from '@honeylend/contracts';
import { ApiError } from '../../platform/errors/apiError.js';
import type { ApiDeps } from '../../platform/context/context.js';
import { documentsOf } from '../../platform/lists/searchPage.js';
import { otpStatusOf } from '../../members/staff/adminMemberAnswer.js';
import type { PersonalDataView } from '../../staff/personalData/personalDataView.js';

/**
 * Borrowing-list rows: each loan with its member (balance, credit score, OTP delivery), members
 * read once per page; `view` masks personal data for an auditor.
 */
export async function adminLoanAnswers(deps: ApiDeps, loans: LoanDoc[], view?: PersonalDataView): Promise<AdminLoanAnswer[]> {
  const memberIds = [...new Set(loans.map((loan) => loan.memberId))];
  const members = await documentsOf<MemberDoc>(deps.redis, memberIds, deps.readModels.keys.member);
  const byId = new Map(members.map((member) => [member.id, view ? view.member(member) : member]));
  const otp = new Map(await Promise.all(members.map(async (member) => [member.id, await otpStatusOf(deps, member.id)] as const)));
  const today = await deps.businessClock.today();
  return loans.map((loan) => toAdminLoanAnswer(view ? view.loan(loan) : loan, byId.get(loan.memberId) ?? null, otp.get(loan.memberId) ?? null, today));
}

/** One loan for staff, with its payment schedule. */
export async function loadAdminLoan(deps: ApiDeps, loanId: string, view?: PersonalDataView): Promise<AdminLoanAnswer & { schedule: ReturnType<typeof toLoanAnswer>['schedule'] }> {
  const loan = await deps.readModels.loan(loanId);
  if (!loan) throw new ApiError(404, 'LOAN_NOT_FOUND', 'Loan not found');
  const [[answer], today] = await Promise.all([adminLoanAnswers(deps, [loan], view), deps.businessClock.today()]);
  return { ...answer, schedule: toLoanAnswer(loan, today).schedule };
}

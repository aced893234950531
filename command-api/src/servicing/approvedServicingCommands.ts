import { approvedMetadata, type ApprovedCommandRunners } from '../approvals/fourEyes.js';
import { reverseRepayment, waivePenalty } from './adminMoneyCommands.js';

/** The servicing commands four eyes may hold, as they run once a second admin approves them. */
export const approvedServicingCommands: Pick<ApprovedCommandRunners, 'penalty_waiver' | 'repayment_reversal'> = {
  penalty_waiver: (deps, ctx, approval, checkerId) =>
    waivePenalty(deps, approvedMetadata(ctx, approval, checkerId), approval.command.loanId, { amount: approval.command.amountCentavos, reason: approval.command.reason }, approval.approvalId),
  // Bound to the repayment the second admin saw: refused (APPROVAL_TERMS_CHANGED) should the loan hold another amount under that id.
  repayment_reversal: (deps, ctx, approval, checkerId) =>
    reverseRepayment(
      deps,
      approvedMetadata(ctx, approval, checkerId),
      approval.command.loanId,
      approval.command.repaymentId,
      { reason: approval.command.reason },
      {
        grantedAmountCentavos: approval.command.amountCentavos,
      },
    ),
};

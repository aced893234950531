import type { ApprovedCommandRunners } from '../../approvals/fourEyes.js';
import { changeLoanStatus } from '../loanCommands.js';

/** The loan commands four eyes may hold, as they run once a second admin approves them. */
export const approvedLoanCommands: Pick<ApprovedCommandRunners, 'loan_approval'> = {
  loan_approval: (deps, ctx, { command }, checkerId) => {
    const notify = typeof command.notify === 'object' && command.notify !== null ? { title: command.notify.title, message: command.notify.message } : (command.notify ?? undefined);
    return changeLoanStatus(deps, ctx, checkerId, command.loanId, { status: 'approved', message: command.message ?? undefined, notify });
  },
};

import { isBuiltInLoanStatus, type EventOf } from '@honeylend/contracts';
import { DomainError, type Decider } from '../../platform/commands/decider.js';

/** Stream settings-loan-statuses: the statuses admins added to the built-in ones (spec §4), kept for everyone. */
export type CustomLoanStatusEvent = EventOf<'LoanStatusDefined' | 'LoanStatusRemoved'>;
export interface CustomLoanStatusesState {
  statuses: string[];
}
export type CustomLoanStatusCommand = { type: 'DefineLoanStatus'; status: string; now: string } | { type: 'RemoveLoanStatus'; status: string; now: string };

/** Spec §4: lowercased; words joined by underscores so "For Interview" and "for-interview" are one status. */
export function normaliseLoanStatus(input: string): string {
  return input
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

export const customLoanStatusesDecider: Decider<CustomLoanStatusesState, CustomLoanStatusCommand, CustomLoanStatusEvent> = {
  initialState: () => ({ statuses: [] }),
  evolve: (state, event) => (event.type === 'LoanStatusDefined' ? { statuses: [...state.statuses, event.data.status] } : { statuses: state.statuses.filter((status) => status !== event.data.status) }),
  decide: (command, state) => {
    if (command.type === 'DefineLoanStatus') {
      if (isBuiltInLoanStatus(command.status) || state.statuses.includes(command.status)) {
        throw new DomainError(409, 'LOAN_STATUS_EXISTS', `"${command.status}" is already a loan status.`);
      }
      return [{ type: 'LoanStatusDefined', data: { status: command.status, definedAt: command.now } }];
    }
    if (isBuiltInLoanStatus(command.status)) throw new DomainError(409, 'BUILT_IN_LOAN_STATUS', `"${command.status}" is built in and cannot be removed.`);
    if (!state.statuses.includes(command.status)) throw new DomainError(404, 'LOAN_STATUS_NOT_FOUND', `"${command.status}" is not a custom loan status.`);
    return [{ type: 'LoanStatusRemoved', data: { status: command.status, removedAt: command.now } }];
  },
};

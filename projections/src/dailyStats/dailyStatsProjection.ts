import { dailyStatsKeys, formatCalendarDate, manilaDateOf } from '@honeylend/contracts';
import type { Projection } from '../projection.js';

/** What this projection remembers of a loan, so a status change or new terms move the right amount. */
interface TrackedLoan {
  status: string;
  amountCentavos: number;
}

/**
 * The admin console's charts: per Manila calendar day, loan applications and withdrawal requests
 * with their amounts (rm:stats:daily), and loans on the books per current status with their
 * principal (rm:stats:loan-amount-by-status). Counters in integer centavos, kept as events arrive.
 *
 * The day is the event's recorded `createdAt`, never the clock, so a replay rebuilds the same
 * counters. A day's figures are a history of what was asked that day: a later status change,
 * new terms or a deletion changes the amount-by-status counters, not the day it was applied on.
 * The loan's status and amount are kept in keys of this projection's own (rm:stats:loan:<id>)
 * rather than read from the loans projection's documents, which may be at another position.
 */
/** The status a loan has after one of the events that set it. */
function statusAfter(event: { type: 'LoanStatusChanged'; data: { to: string } } | { type: 'LoanAccountOpened' | 'LoanPaidOff' | 'LoanApplicationCancelled' | 'LoanApprovalLapsed' }): string {
  switch (event.type) {
    case 'LoanStatusChanged':
      return event.data.to;
    case 'LoanAccountOpened':
      return 'active';
    case 'LoanPaidOff':
      return 'completed';
    case 'LoanApplicationCancelled':
      return 'cancelled';
    case 'LoanApprovalLapsed':
      return 'lapsed';
  }
}

export const dailyStatsProjection: Projection = {
  name: 'dailyStats',
  async apply(event, tx, keys) {
    const stats = dailyStatsKeys(keys);
    const day = () => formatCalendarDate(manilaDateOf(event.createdAt));
    const moveStatus = (status: string, loans: number, amountCentavos: number) => {
      tx.hincrby(stats.loanAmountByStatus, `count:${status}`, loans);
      tx.hincrby(stats.loanAmountByStatus, `amountCentavos:${status}`, amountCentavos);
    };
    switch (event.type) {
      case 'LoanApplied': {
        const { loanId, amountCentavos } = event.data;
        const date = day();
        tx.hincrby(stats.daily, stats.dailyField(date, 'loanApplications'), 1);
        tx.hincrby(stats.daily, stats.dailyField(date, 'loanAmountCentavos'), amountCentavos);
        tx.setJson(stats.trackedLoan(loanId), { status: 'pending', amountCentavos } satisfies TrackedLoan);
        moveStatus('pending', 1, amountCentavos);
        return;
      }
      case 'LoanStatusChanged':
      // The status that follows the money: disbursement makes a loan active, the payoff completed.
      case 'LoanAccountOpened':
      case 'LoanPaidOff':
      // The borrower withdrew the application.
      case 'LoanApplicationCancelled':
      // The approval was not accepted in time.
      case 'LoanApprovalLapsed': {
        const to = statusAfter(event);
        const loan = await tx.getJson<TrackedLoan>(stats.trackedLoan(event.data.loanId));
        if (!loan || loan.status === to) return;
        moveStatus(loan.status, -1, -loan.amountCentavos);
        moveStatus(to, 1, loan.amountCentavos);
        tx.setJson(stats.trackedLoan(event.data.loanId), { ...loan, status: to } satisfies TrackedLoan);
        return;
      }
      case 'LoanTermsChanged': {
        const loan = await tx.getJson<TrackedLoan>(stats.trackedLoan(event.data.loanId));
        if (!loan) return;
        moveStatus(loan.status, 0, event.data.amountCentavos - loan.amountCentavos);
        tx.setJson(stats.trackedLoan(event.data.loanId), { ...loan, amountCentavos: event.data.amountCentavos } satisfies TrackedLoan);
        return;
      }
      case 'LoanDeleted': {
        const loan = await tx.getJson<TrackedLoan>(stats.trackedLoan(event.data.loanId));
        if (!loan) return;
        moveStatus(loan.status, -1, -loan.amountCentavos);
        tx.delete(stats.trackedLoan(event.data.loanId));
        return;
      }
      case 'WithdrawalRequested': {
        const date = day();
        tx.hincrby(stats.daily, stats.dailyField(date, 'withdrawals'), 1);
        tx.hincrby(stats.daily, stats.dailyField(date, 'withdrawalAmountCentavos'), event.data.amountCentavos);
        return;
      }
      default:
        return;
    }
  },
};

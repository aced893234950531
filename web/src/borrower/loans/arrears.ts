import type { LoanAnswer } from '@honeylend/contracts';

/** What a borrower behind on payments needs to see first: how much is overdue, since when, and what brings the loan up to date. */
export interface Arrears {
  /** Everything past due: the unpaid part of each late instalment and its late charges (pesos). */
  overdueAmount: number;
  /** The late charges on those instalments so far, paid or not (pesos). */
  lateCharges: number;
  /** The due date of the oldest instalment still unpaid. */
  since: string;
  daysPastDue: number;
  instalments: number;
}

const centavos = (pesos: number) => Math.round(pesos * 100);
const owedOn = (row: LoanAnswer['schedule'][number]) => Math.max(0, centavos(row.amount) + centavos(row.penalty) - centavos(row.paid));

/** The arrears of an active loan, from its schedule as the server folded it; null when nothing is past due. */
export function arrearsOf(loan: LoanAnswer): Arrears | null {
  if (loan.status !== 'active') return null;
  const late = loan.schedule.filter((row) => row.daysPastDue > 0 && owedOn(row) > 0);
  if (late.length === 0) return null;
  return {
    overdueAmount: late.reduce((sum, row) => sum + owedOn(row), 0) / 100,
    lateCharges: late.reduce((sum, row) => sum + centavos(row.penalty), 0) / 100,
    since: late[0].dueDate,
    daysPastDue: Math.max(loan.daysPastDue, late[0].daysPastDue),
    instalments: late.length,
  };
}

/** The next instalment not yet past due, with what is left of it: "next due" is never a date gone by. */
export function upcomingDue(loan: LoanAnswer): { date: string; amount: number } | null {
  if (loan.status !== 'active') return null;
  const next = loan.schedule.find((row) => row.daysPastDue === 0 && owedOn(row) > 0);
  return next ? { date: next.dueDate, amount: owedOn(next) / 100 } : null;
}

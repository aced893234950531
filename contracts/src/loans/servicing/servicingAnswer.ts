import { centavosToPesos } from '../../money.js';
import type { RepaymentChannel } from '../../events.js';
import { startOfBusinessDate, addDays, type BusinessDate } from './businessDate.js';
import type { DelinquencyBucket } from './delinquency.js';
import type { LoanAccount } from './loanAccount.js';
import { disbursementSchedule } from './openAccount.js';
import { loanPosition, type InstalmentStatus, type LoanPosition, type OwedCentavos } from './position.js';

/** One schedule row as answers show it, in pesos; `month` is the spec's name, `number` the servicing one. */
export interface ScheduleRowAnswer {
  month: number;
  number: number;
  dueDate: string;
  amount: number;
  principal: number;
  interest: number;
  penalty: number;
  paid: number;
  /** Interest of this instalment the payoff did not charge (it was not yet due when the loan was paid off). */
  interestWaived: number;
  status: InstalmentStatus;
  daysPastDue: number;
}

export interface OwedAnswer {
  principal: number;
  interest: number;
  penalties: number;
  total: number;
}

export interface RepaymentAnswer {
  id: string;
  receiptNumber: string;
  amount: number;
  channel: RepaymentChannel;
  reference: string;
  valueDate: string;
  receivedAt: string;
  reversed: boolean;
  allocation: AllocationAnswer[];
}

export interface AllocationAnswer {
  instalment: number;
  penalty: number;
  interest: number;
  principal: number;
}

export interface ServicingAnswer {
  /**
   * The day the schedule counts from: the money reached the wallet that day (`done`), or, before
   * disbursement, the business date an acceptance today would disburse on.
   */
  disbursement: { on: string; done: boolean };
  schedule: ScheduleRowAnswer[];
  outstanding: OwedAnswer;
  nextDue: { date: string; amount: number } | null;
  daysPastDue: number;
  delinquencyBucket: DelinquencyBucket;
  repayments: RepaymentAnswer[];
}

export interface PayoffQuoteAnswer {
  amount: number;
  validUntil: string;
  breakdown: { principal: number; interest: number; penalties: number };
}

const pesos = centavosToPesos;

export function owedAnswer(owed: OwedCentavos): OwedAnswer {
  return { principal: pesos(owed.principalCentavos), interest: pesos(owed.interestCentavos), penalties: pesos(owed.penaltiesCentavos), total: pesos(owed.totalCentavos) };
}

export function allocationAnswer(lines: LoanPosition['repayments'][number]['allocation']): AllocationAnswer[] {
  return lines.map((line) => ({ instalment: line.instalment, penalty: pesos(line.penaltyCentavos), interest: pesos(line.interestCentavos), principal: pesos(line.principalCentavos) }));
}

/**
 * The servicing half of a loan's answer: the fold of its account, or before disbursement the schedule
 * a disbursement on `today` (the business date) would fix, as its Disclosure Statement shows it.
 */
export function servicingAnswer(loan: { amountCentavos: number; monthlyRateBps: number; termMonths: number; termsAcceptedOn?: string | null; account?: LoanAccount | null }, today: BusinessDate): ServicingAnswer {
  if (!loan.account) {
    // Accepted, the acceptance's date holds (disbursement follows it at once).
    const on = loan.termsAcceptedOn ?? today;
    const schedule = disbursementSchedule({ principalCentavos: loan.amountCentavos, monthlyRateBps: loan.monthlyRateBps, termMonths: loan.termMonths }, on);
    return {
      disbursement: { on, done: false },
      schedule: schedule.map((row) => ({
        month: row.number,
        number: row.number,
        dueDate: row.dueDate,
        amount: pesos(row.amountCentavos),
        principal: pesos(row.principalCentavos),
        interest: pesos(row.interestCentavos),
        penalty: 0,
        paid: 0,
        interestWaived: 0,
        status: 'upcoming',
        daysPastDue: 0,
      })),
      outstanding: { principal: 0, interest: 0, penalties: 0, total: 0 },
      nextDue: null,
      daysPastDue: 0,
      delinquencyBucket: 'current',
      repayments: [],
    };
  }
  const position = loanPosition(loan.account);
  return {
    disbursement: { on: loan.account.openedOn, done: true },
    schedule: position.instalments.map((line) => ({
      month: line.number,
      number: line.number,
      dueDate: line.dueDate,
      amount: pesos(line.amountCentavos),
      principal: pesos(line.principalCentavos),
      interest: pesos(line.interestCentavos),
      penalty: pesos(line.penaltyCentavos),
      paid: pesos(line.paidCentavos),
      interestWaived: pesos(line.interestForgivenCentavos),
      status: line.status,
      daysPastDue: line.daysPastDue,
    })),
    outstanding: owedAnswer(position.outstanding),
    nextDue: position.nextDue && { date: position.nextDue.date, amount: pesos(position.nextDue.amountCentavos) },
    daysPastDue: position.daysPastDue,
    delinquencyBucket: position.bucket,
    repayments: position.repayments.map((repayment) => ({
      id: repayment.repaymentId,
      receiptNumber: repayment.receiptNumber,
      amount: pesos(repayment.amountCentavos),
      channel: repayment.channel,
      reference: repayment.reference,
      valueDate: repayment.valueDate,
      receivedAt: repayment.receivedAt,
      reversed: repayment.reversed,
      allocation: allocationAnswer(repayment.allocation),
    })),
  };
}

/** Spec §9 (prepayment without penalty): what closes the loan on `today`, valid to the end of that Manila day. */
export function payoffQuoteAnswer(account: LoanAccount, today: BusinessDate): PayoffQuoteAnswer {
  const payoff = loanPosition(account, today).payoff;
  return {
    amount: pesos(payoff.totalCentavos),
    validUntil: startOfBusinessDate(addDays(today, 1)),
    breakdown: { principal: pesos(payoff.principalCentavos), interest: pesos(payoff.interestCentavos), penalties: pesos(payoff.penaltiesCentavos) },
  };
}

/** 201 of every repayment route: the receipt and how the fold allocated it. */
export interface RepaymentReceiptAnswer {
  id: string;
  receiptNumber: string;
  amount: number;
  valueDate: string;
  allocation: AllocationAnswer[];
}

/** GET /api/admin/portfolio */
export interface PortfolioAnswer {
  asOf: string;
  outstandingPrincipal: number;
  activeLoans: number;
  buckets: { bucket: DelinquencyBucket; loans: number; outstandingPrincipal: number }[];
  /** Share (0–1) of outstanding principal in loans 30 or more days past due. */
  par30: number;
  portfolioAtRisk30: number;
  month: string;
  repaidThisMonth: number;
}

/** One row of GET /api/admin/collections. */
export interface CollectionsRowAnswer {
  id: string;
  loanNumber: string;
  memberId: string;
  borrower: { fullName: string; phone: string } | null;
  daysPastDue: number;
  delinquencyBucket: DelinquencyBucket;
  overdueAmount: number;
  overdueInstalments: number;
  outstanding: number;
  lastContact: { at: string; channel: 'sms' } | null;
  version: number;
}

/** GET /api/dev/business-date (outside production). */
export interface BusinessDateAnswer {
  date: string;
  calendarDate: string;
  lastDayClose: string | null;
}

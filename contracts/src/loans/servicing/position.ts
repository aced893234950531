import type { RepaymentChannel } from '../../events.js';
import type { Centavos } from '../../money.js';
import { addDays, daysBetween, earlierDate, laterDate, type BusinessDate } from './businessDate.js';
import { delinquencyBucketOf, type DelinquencyBucket } from './delinquency.js';
import type { LoanAccount, RecordedRepayment, RecordedWaiver } from './loanAccount.js';

export type InstalmentStatus = 'upcoming' | 'due' | 'partially_paid' | 'paid' | 'overdue';

export interface InstalmentPosition {
  number: number;
  dueDate: BusinessDate;
  amountCentavos: Centavos;
  principalCentavos: Centavos;
  interestCentavos: Centavos;
  /** Late charges on this instalment so far, less what was waived. */
  penaltyCentavos: Centavos;
  /** Late charges on this instalment so far, before waivers. */
  penaltyChargedCentavos: Centavos;
  /** Principal, interest and late charges paid on it. */
  paidCentavos: Centavos;
  unpaidPrincipalCentavos: Centavos;
  unpaidInterestCentavos: Centavos;
  unpaidPenaltyCentavos: Centavos;
  /** Interest of an instalment not yet due when the loan was paid off: never owed. */
  interestForgivenCentavos: Centavos;
  status: InstalmentStatus;
  daysPastDue: number;
}

/** What one repayment paid, instalment by instalment (only instalments it touched). */
export interface AllocationLine {
  instalment: number;
  penaltyCentavos: Centavos;
  interestCentavos: Centavos;
  principalCentavos: Centavos;
}

export interface RepaymentPosition {
  repaymentId: string;
  receiptNumber: string;
  amountCentavos: Centavos;
  channel: RepaymentChannel;
  source: RecordedRepayment['source'];
  reference: string;
  valueDate: BusinessDate;
  receivedAt: string;
  reversed: boolean;
  allocation: AllocationLine[];
  /** Whatever found nothing left to pay (the decider never lets this be more than 0). */
  overpaidCentavos: Centavos;
  /** This repayment paid the payoff amount and closed the loan. */
  paidOff: boolean;
}

export interface OwedCentavos {
  principalCentavos: Centavos;
  interestCentavos: Centavos;
  penaltiesCentavos: Centavos;
  totalCentavos: Centavos;
}

export interface LoanPosition {
  asOf: BusinessDate;
  instalments: InstalmentPosition[];
  /** Everything still owed under the schedule (interest of instalments not yet due included). */
  outstanding: OwedCentavos;
  /** What closes the loan today: unpaid principal, interest of instalments already due, unpaid late charges. */
  payoff: OwedCentavos;
  nextDue: { date: BusinessDate; amountCentavos: Centavos } | null;
  daysPastDue: number;
  bucket: DelinquencyBucket;
  repayments: RepaymentPosition[];
  waivers: { waiverId: string; amountCentavos: Centavos; appliedCentavos: Centavos; businessDate: BusinessDate }[];
  /** Every repayment that counts, added up (reversed ones do not count). */
  repaidCentavos: Centavos;
  overpaidCentavos: Centavos;
  closed: { repaymentId: string; valueDate: BusinessDate; interestForgivenCentavos: Centavos } | null;
}

interface Line {
  number: number;
  dueDate: BusinessDate;
  amount: number;
  principal: number;
  interest: number;
  /** Unpaid principal and interest times days charged: the late charge is this × rate / (10 000 × 30). */
  overdueCentavoDays: bigint;
  principalPaid: number;
  interestPaid: number;
  penaltyPaid: number;
  penaltyWaived: number;
  interestForgiven: number;
}

const DAYS_PER_MONTH = 30n;
const BASIS_POINTS = 10_000n;

/** Late charge so far: rate per month pro-rated by the day, rounded half up once (never a centavo lost day by day). */
function penaltyCharged(line: Line, monthlyBps: number): number {
  const divisor = BASIS_POINTS * DAYS_PER_MONTH;
  return Number((2n * line.overdueCentavoDays * BigInt(monthlyBps) + divisor) / (2n * divisor));
}

const unpaidPrincipal = (line: Line) => line.principal - line.principalPaid;
const unpaidInterest = (line: Line) => line.interest - line.interestPaid - line.interestForgiven;
const unpaidPenalty = (line: Line, bps: number) => penaltyCharged(line, bps) - line.penaltyPaid - line.penaltyWaived;

const dateOf = (tx: RecordedRepayment | RecordedWaiver) => (tx.kind === 'repayment' ? tx.valueDate : tx.businessDate);

/**
 * The date a position is taken as of by default: the latest business date the loan's events know
 * of — the day close's, or that of a later repayment, waiver or reversal (a loan in good standing
 * records nothing between due dates, so its day close date can lag).
 */
export function positionDate(account: LoanAccount): BusinessDate {
  return account.transactions.reduce((latest, tx) => {
    const recorded = laterDate(latest, laterDate(dateOf(tx), tx.businessDate));
    return tx.kind === 'repayment' && tx.reversal ? laterDate(recorded, tx.reversal.businessDate) : recorded;
  }, account.today);
}

/**
 * The loan account's position as of `asOf` (a business date: that day is open, the days before it
 * closed). A pure fold over the recorded facts, in value-date order:
 *
 * - late charges accrue for each closed day an instalment is more than the grace days past its due
 *   date: its unpaid principal and interest × the monthly rate / 30, rounded once per instalment;
 * - a repayment pays the oldest instalment first, penalties → interest → principal, and any surplus
 *   the next instalments (prepayment is free);
 * - a repayment of at least the payoff amount on its value date closes the loan: it pays what is due
 *   and the principal, and the interest of instalments not yet due is forgiven;
 * - a waiver takes late charges off, oldest first, never more than are unpaid;
 * - a reversed repayment does not count at all, so reversals and back-dated repayments simply fold
 *   again: no allocation is stored anywhere;
 * - transactions dated after `asOf` are not yet part of the position.
 */
export function loanPosition(account: LoanAccount, asOf: BusinessDate = positionDate(account)): LoanPosition {
  const bps = account.lateChargeMonthlyBps;
  const grace = account.lateChargeGraceDays;
  const lines: Line[] = account.schedule.map((row) => ({
    number: row.number,
    dueDate: row.dueDate,
    amount: row.amountCentavos,
    principal: row.principalCentavos,
    interest: row.interestCentavos,
    overdueCentavoDays: 0n,
    principalPaid: 0,
    interestPaid: 0,
    penaltyPaid: 0,
    penaltyWaived: 0,
    interestForgiven: 0,
  }));
  let accruedThrough = addDays(account.openedOn, -1);
  let closed: LoanPosition['closed'] = null;
  const lastClosedDay = addDays(asOf, -1);

  /** Charges every day from the last one charged through `day` (never a day still open). */
  const accrueThrough = (day: BusinessDate) => {
    const through = earlierDate(day, lastClosedDay);
    if (closed || through <= accruedThrough) return;
    const from = addDays(accruedThrough, 1);
    for (const line of lines) {
      const owed = unpaidPrincipal(line) + unpaidInterest(line);
      if (owed <= 0) continue;
      const firstCharged = laterDate(from, addDays(line.dueDate, grace + 1));
      const days = daysBetween(firstCharged, through) + 1;
      if (days > 0) line.overdueCentavoDays += BigInt(owed) * BigInt(days);
    }
    accruedThrough = through;
  };

  const ordered = account.transactions
    .map((tx, index) => ({ tx, index }))
    .filter(({ tx }) => !(tx.kind === 'repayment' && tx.reversal) && dateOf(tx) <= asOf)
    .sort((a, b) => (dateOf(a.tx) < dateOf(b.tx) ? -1 : dateOf(a.tx) > dateOf(b.tx) ? 1 : a.index - b.index));

  const allocations = new Map<string, { allocation: AllocationLine[]; overpaid: number; paidOff: boolean }>();
  const applied = new Map<string, number>();

  for (const { tx } of ordered) {
    const date = dateOf(tx);
    accrueThrough(addDays(date, -1));
    if (tx.kind === 'waiver') {
      let left = closed ? 0 : tx.amountCentavos;
      for (const line of lines) {
        const take = Math.min(left, Math.max(0, unpaidPenalty(line, bps)));
        line.penaltyWaived += take;
        left -= take;
      }
      applied.set(tx.waiverId, tx.amountCentavos - left);
      continue;
    }
    if (closed) {
      allocations.set(tx.repaymentId, { allocation: [], overpaid: tx.amountCentavos, paidOff: false });
      continue;
    }
    const payoffDue = lines.reduce((sum, line) => sum + unpaidPrincipal(line) + Math.max(0, unpaidPenalty(line, bps)) + (line.dueDate <= date ? unpaidInterest(line) : 0), 0);
    const paysOff = tx.amountCentavos >= payoffDue;
    let left = tx.amountCentavos;
    const allocation: AllocationLine[] = [];
    for (const line of lines) {
      if (left === 0) break;
      const penalty = Math.min(left, Math.max(0, unpaidPenalty(line, bps)));
      left -= penalty;
      const interest = paysOff && line.dueDate > date ? 0 : Math.min(left, unpaidInterest(line));
      left -= interest;
      const principal = Math.min(left, unpaidPrincipal(line));
      left -= principal;
      line.penaltyPaid += penalty;
      line.interestPaid += interest;
      line.principalPaid += principal;
      if (penalty + interest + principal > 0) allocation.push({ instalment: line.number, penaltyCentavos: penalty, interestCentavos: interest, principalCentavos: principal });
    }
    if (paysOff) {
      let forgiven = 0;
      for (const line of lines) {
        const interest = unpaidInterest(line);
        line.interestForgiven += interest;
        forgiven += interest;
      }
      closed = { repaymentId: tx.repaymentId, valueDate: date, interestForgivenCentavos: forgiven };
    }
    allocations.set(tx.repaymentId, { allocation, overpaid: left, paidOff: paysOff });
  }
  accrueThrough(lastClosedDay);

  const instalments = lines.map((line): InstalmentPosition => {
    const penalty = penaltyCharged(line, bps) - line.penaltyWaived;
    const unpaidPen = Math.max(0, unpaidPenalty(line, bps));
    const unpaid = unpaidPrincipal(line) + unpaidInterest(line) + unpaidPen;
    const paid = line.principalPaid + line.interestPaid + line.penaltyPaid;
    const overdue = unpaid > 0 && line.dueDate < asOf;
    const status: InstalmentStatus = unpaid === 0 ? 'paid' : overdue ? 'overdue' : paid > 0 ? 'partially_paid' : line.dueDate === asOf ? 'due' : 'upcoming';
    return {
      number: line.number,
      dueDate: line.dueDate,
      amountCentavos: line.amount,
      principalCentavos: line.principal,
      interestCentavos: line.interest,
      penaltyCentavos: penalty,
      penaltyChargedCentavos: penaltyCharged(line, bps),
      paidCentavos: paid,
      unpaidPrincipalCentavos: unpaidPrincipal(line),
      unpaidInterestCentavos: unpaidInterest(line),
      unpaidPenaltyCentavos: unpaidPen,
      interestForgivenCentavos: line.interestForgiven,
      status,
      daysPastDue: overdue ? daysBetween(line.dueDate, asOf) : 0,
    };
  });

  const sum = (pick: (line: InstalmentPosition) => number, only: (line: InstalmentPosition) => boolean = () => true) => instalments.filter(only).reduce((total, line) => total + pick(line), 0);
  const owed = (interestOf: (line: InstalmentPosition) => boolean): OwedCentavos => {
    const principalCentavos = sum((line) => line.unpaidPrincipalCentavos);
    const interestCentavos = sum((line) => line.unpaidInterestCentavos, interestOf);
    const penaltiesCentavos = sum((line) => line.unpaidPenaltyCentavos);
    return { principalCentavos, interestCentavos, penaltiesCentavos, totalCentavos: principalCentavos + interestCentavos + penaltiesCentavos };
  };
  const firstUnpaid = instalments.find((line) => line.status !== 'paid');
  const daysPastDue = Math.max(0, ...instalments.map((line) => line.daysPastDue));

  const repayments: RepaymentPosition[] = account.transactions
    .filter((tx): tx is RecordedRepayment => tx.kind === 'repayment')
    .map((tx) => {
      const folded = allocations.get(tx.repaymentId);
      return {
        repaymentId: tx.repaymentId,
        receiptNumber: tx.receiptNumber,
        amountCentavos: tx.amountCentavos,
        channel: tx.channel,
        source: tx.source,
        reference: tx.reference,
        valueDate: tx.valueDate,
        receivedAt: tx.receivedAt,
        reversed: tx.reversal !== null,
        allocation: folded?.allocation ?? [],
        overpaidCentavos: folded?.overpaid ?? 0,
        paidOff: folded?.paidOff ?? false,
      };
    });

  return {
    asOf,
    instalments,
    outstanding: owed(() => true),
    payoff: owed((line) => line.dueDate <= asOf),
    nextDue: firstUnpaid ? { date: firstUnpaid.dueDate, amountCentavos: firstUnpaid.unpaidPrincipalCentavos + firstUnpaid.unpaidInterestCentavos + firstUnpaid.unpaidPenaltyCentavos } : null,
    daysPastDue,
    bucket: delinquencyBucketOf(daysPastDue),
    repayments,
    waivers: account.transactions
      .filter((tx): tx is RecordedWaiver => tx.kind === 'waiver')
      .map((tx) => ({ waiverId: tx.waiverId, amountCentavos: tx.amountCentavos, appliedCentavos: applied.get(tx.waiverId) ?? 0, businessDate: tx.businessDate })),
    repaidCentavos: repayments.filter((r) => !r.reversed).reduce((total, r) => total + r.amountCentavos, 0),
    overpaidCentavos: repayments.reduce((total, r) => total + r.overpaidCentavos, 0),
    closed,
  };
}

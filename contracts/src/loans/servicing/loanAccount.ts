import type { EventData, EventOf, ReminderReason, RepaymentChannel } from '../../events.js';
import type { Centavos } from '../../money.js';
import { laterDate, type BusinessDate } from './businessDate.js';
import type { DelinquencyBucket } from './delinquency.js';

/** The events that make a loan account what it is after disbursement (stream loan-<id>). */
export type LoanAccountEvent = EventOf<
  | 'LoanAccountOpened'
  | 'RepaymentReceived'
  | 'RepaymentReversed'
  | 'InstalmentFellDue'
  | 'LateChargeApplied'
  | 'DelinquencyBucketChanged'
  | 'LoanDayClosed'
  | 'PenaltyWaived'
  | 'LoanPaidOff'
  | 'RepaymentReminderSent'
  | 'WalletRepaymentDeclined'
>;

export const LOAN_ACCOUNT_EVENT_TYPES: readonly LoanAccountEvent['type'][] = [
  'LoanAccountOpened',
  'RepaymentReceived',
  'RepaymentReversed',
  'InstalmentFellDue',
  'LateChargeApplied',
  'DelinquencyBucketChanged',
  'LoanDayClosed',
  'PenaltyWaived',
  'LoanPaidOff',
  'RepaymentReminderSent',
  'WalletRepaymentDeclined',
];

export function isLoanAccountEvent(event: { type: string }): event is LoanAccountEvent {
  return (LOAN_ACCOUNT_EVENT_TYPES as readonly string[]).includes(event.type);
}

export type ScheduledInstalment = EventData<'LoanAccountOpened'>['schedule'][number];

export interface RecordedRepayment {
  kind: 'repayment';
  repaymentId: string;
  receiptNumber: string;
  amountCentavos: Centavos;
  channel: RepaymentChannel;
  source: 'wallet' | 'admin' | 'provider';
  reference: string;
  valueDate: BusinessDate;
  businessDate: BusinessDate;
  receivedAt: string;
  reversal: { reason: string; businessDate: BusinessDate; reversedAt: string } | null;
}

export interface RecordedWaiver {
  kind: 'waiver';
  waiverId: string;
  amountCentavos: Centavos;
  reason: string;
  /** A waiver counts from the business date it was granted. */
  businessDate: BusinessDate;
  waivedAt: string;
}

/**
 * What a loan account's events say, and nothing computed: the schedule and its terms, every
 * repayment and waiver in the order they were recorded, and the last business date the day close
 * opened for it. Everything owed, paid and charged is computed from this by `loanPosition`, the one
 * fold the decider, the projection, the borrower's screen and the auditor's as-of view share.
 */
export interface LoanAccount {
  loanId: string;
  memberId: string;
  principalCentavos: Centavos;
  monthlyRateBps: number;
  termMonths: number;
  lateChargeMonthlyBps: number;
  lateChargeGraceDays: number;
  schedule: ScheduledInstalment[];
  /** The business date disbursement opened the account on. */
  openedOn: BusinessDate;
  /** The latest business date the day close opened for this loan (late charges accrue up to the day before). */
  today: BusinessDate;
  /** Repayments and waivers in the order they were recorded (reversed repayments stay, marked). */
  transactions: (RecordedRepayment | RecordedWaiver)[];
  /** The bucket the last DelinquencyBucketChanged recorded. */
  bucket: DelinquencyBucket;
  paidOff: { repaymentId: string; valueDate: BusinessDate; interestForgivenCentavos: Centavos } | null;
  /** `<instalment>:<reason>` of every reminder sent. */
  remindersSent: string[];
  /** Wallet repayments the loan refused after the debit (they were refunded, never received). */
  declinedRepaymentIds: string[];
}

export const reminderKey = (instalment: number, reason: ReminderReason) => `${instalment}:${reason}`;

/** Folding never mutates: every event gives a new account. Events before the account opened are ignored. */
export function evolveLoanAccount(account: LoanAccount | null, event: LoanAccountEvent): LoanAccount | null {
  if (event.type === 'LoanAccountOpened') {
    const data = event.data;
    return {
      loanId: data.loanId,
      memberId: data.memberId,
      principalCentavos: data.principalCentavos,
      monthlyRateBps: data.monthlyRateBps,
      termMonths: data.termMonths,
      lateChargeMonthlyBps: data.lateChargeMonthlyBps,
      lateChargeGraceDays: data.lateChargeGraceDays,
      schedule: data.schedule,
      openedOn: data.businessDate,
      today: data.businessDate,
      transactions: [],
      bucket: 'current',
      paidOff: null,
      remindersSent: [],
      declinedRepaymentIds: [],
    };
  }
  if (!account) return account;
  switch (event.type) {
    case 'RepaymentReceived': {
      const { repaymentId, receiptNumber, amountCentavos, channel, source, reference, valueDate, businessDate, receivedAt } = event.data;
      const repayment: RecordedRepayment = { kind: 'repayment', repaymentId, receiptNumber, amountCentavos, channel, source, reference, valueDate, businessDate, receivedAt, reversal: null };
      return { ...account, transactions: [...account.transactions, repayment] };
    }
    case 'RepaymentReversed': {
      const { repaymentId, reason, businessDate, reversedAt } = event.data;
      return {
        ...account,
        transactions: account.transactions.map((tx) => (tx.kind === 'repayment' && tx.repaymentId === repaymentId ? { ...tx, reversal: { reason, businessDate, reversedAt } } : tx)),
      };
    }
    case 'PenaltyWaived': {
      const { waiverId, amountCentavos, reason, businessDate, waivedAt } = event.data;
      return { ...account, transactions: [...account.transactions, { kind: 'waiver', waiverId, amountCentavos, reason, businessDate, waivedAt }] };
    }
    case 'InstalmentFellDue':
    case 'LateChargeApplied':
    case 'LoanDayClosed':
      return { ...account, today: laterDate(account.today, event.data.businessDate) };
    case 'DelinquencyBucketChanged':
      return { ...account, today: laterDate(account.today, event.data.businessDate), bucket: event.data.to };
    case 'LoanPaidOff':
      return { ...account, paidOff: { repaymentId: event.data.repaymentId, valueDate: event.data.valueDate, interestForgivenCentavos: event.data.interestForgivenCentavos } };
    case 'RepaymentReminderSent':
      return { ...account, remindersSent: [...account.remindersSent, reminderKey(event.data.instalment, event.data.reason)] };
    case 'WalletRepaymentDeclined':
      return { ...account, declinedRepaymentIds: [...account.declinedRepaymentIds, event.data.repaymentId] };
  }
}

export function findRepayment(account: LoanAccount, repaymentId: string): RecordedRepayment | undefined {
  return account.transactions.find((tx): tx is RecordedRepayment => tx.kind === 'repayment' && tx.repaymentId === repaymentId);
}

/**
 * How references are compared: as people and providers write one payment's reference differently
 * ("GC-777", "gc 777", "ＧＣ－７７７"), case, width, spaces and the usual separators do not count.
 * The reference is kept as it was given; only the comparison folds it.
 */
export function referenceKey(reference: string): string {
  return reference
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\s\-_./]+/g, '');
}

/** A reference names one payment: the same channel and reference again (as referenceKey compares them) is the same repayment. */
export function findRepaymentByReference(account: LoanAccount, channel: RepaymentChannel, reference: string): RecordedRepayment | undefined {
  const key = referenceKey(reference);
  return account.transactions.find((tx): tx is RecordedRepayment => tx.kind === 'repayment' && tx.channel === channel && referenceKey(tx.reference) === key);
}

/** A repayment of this loan recorded under the same reference on any channel (the first one), reversed or not. */
export function findRepaymentByReferenceOnAnyChannel(account: LoanAccount, reference: string): RecordedRepayment | undefined {
  const key = referenceKey(reference);
  return account.transactions.find((tx): tx is RecordedRepayment => tx.kind === 'repayment' && referenceKey(tx.reference) === key);
}

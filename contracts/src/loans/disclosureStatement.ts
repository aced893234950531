import type { CompanyDetails } from '../company.js';
import { formatCalendarDate, manilaDateOf } from './manilaCalendar.js';
import { truthInLending } from './repayment.js';
import { acceptanceDeadline } from './loanStatusRules.js';
import type { BusinessDate } from './servicing/businessDate.js';
import type { ScheduledInstalment } from './servicing/loanAccount.js';
import type { LateChargeSettings } from './servicing/openAccount.js';

/**
 * The final Disclosure Statement of an approved loan (Republic Act No. 3765, the Truth in Lending
 * Act, and SEC MC 19 s.2019): what the borrower is shown and accepts before any money moves. It is
 * one plain text, so the screen, the PDF and the SHA-256 the acceptance records are of the very
 * same characters. Amounts are written "PHP 1,234.56" so the text survives any font (a PDF's
 * standard fonts have no peso sign).
 */
export interface DisclosureStatementInput {
  loanId: string;
  loanNumber: string;
  borrowerName: string;
  principalCentavos: number;
  monthlyRateBps: number;
  termMonths: number;
  approvedAt: string;
  /**
   * The day the money reaches (or reached) the wallet and the schedule counts from: while the
   * approval awaits acceptance, the business date an acceptance now would disburse on; once
   * accepted, the date it did.
   */
  disbursement: { on: BusinessDate; accepted: boolean };
  /** The schedule that applies from that day: `disbursementSchedule` of the terms, or the open account's own. */
  schedule: readonly ScheduledInstalment[];
  lateCharge: LateChargeSettings;
  /** The lender as the operator published it; null while not set. */
  lender: CompanyDetails | null;
}

const amountFormatter = new Intl.NumberFormat('en-PH', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "PHP 150,000.00" */
export function phpAmount(centavos: number): string {
  return `PHP ${amountFormatter.format(centavos / 100)}`;
}

const manilaDate = (instant: string) => formatCalendarDate(manilaDateOf(instant));
const percent = (value: number) => `${value.toFixed(2)}%`;
const pad = (text: string, width: number) => text.padEnd(width, ' ');

function lenderLines(lender: CompanyDetails | null): string[] {
  if (!lender) return ['Lender: the operator has not yet published its company details; ask for them before you accept.'];
  return [
    `Lender: ${lender.companyName}`,
    `SEC Registration No.: ${lender.secRegistrationNumber}`,
    `Certificate of Authority No.: ${lender.certificateOfAuthorityNumber}`,
    `Date registered: ${lender.dateRegistered} (${lender.status})`,
    `Address: ${lender.address}`,
    `Contact: ${lender.contact}`,
  ];
}

/** The late charge as every contract, schedule and statement words it: one sentence, from one source. */
export function lateChargeTerms({ monthlyBps, graceDays }: LateChargeSettings): string {
  return `Late payment charge: ${percent(monthlyBps / 100)} a month of the overdue instalment, counted daily from the ${ordinal(graceDays + 1)} day after its due date.`;
}

/** What the borrower reads while an application waits: the app and a text tell them when it is decided. */
export const UNDER_REVIEW_MESSAGE = 'Your loan application is under review. We will tell you here and by text as soon as it is decided.';

export function disclosureStatementText(input: DisclosureStatementInput): string {
  const disclosure = truthInLending({ principalCentavos: input.principalCentavos, monthlyRateBps: input.monthlyRateBps, termMonths: input.termMonths });
  const { schedule, disbursement } = input;
  const lines = [
    'DISCLOSURE STATEMENT ON LOAN TRANSACTION',
    '(Republic Act No. 3765, the Truth in Lending Act)',
    '',
    ...lenderLines(input.lender),
    '',
    `Borrower: ${input.borrowerName}`,
    `Loan number: ${input.loanNumber}`,
    `Approved on: ${manilaDate(input.approvedAt)}`,
    `Accept by: ${manilaDate(acceptanceDeadline(input.approvedAt))} (the approval lapses if not accepted by then)`,
    disbursement.accepted
      ? `Disbursed on: ${disbursement.on} (instalment 1 due ${schedule[0]?.dueDate ?? '-'})`
      : `Disbursement: the day you accept. Accepted today (${disbursement.on}), instalment 1 is due ${schedule[0]?.dueDate ?? '-'}, two months later; accepted on another day, every due date moves with it and this statement is issued again.`,
    '',
    `1. Amount financed (paid into your Honeylend wallet): ${phpAmount(disclosure.principalCentavos)}`,
    `2. Charges deducted from the amount financed: ${phpAmount(0)}`,
    `3. Finance charge (interest for the whole term): ${phpAmount(disclosure.financeChargeCentavos)}`,
    `4. Total amount to be paid: ${phpAmount(disclosure.totalRepayableCentavos)}`,
    `5. Interest: ${percent(disclosure.nominalMonthlyRatePercent)} a month, flat, on the amount financed`,
    `6. Effective interest rate: ${percent(disclosure.effectiveMonthlyRatePercent)} a month, ${percent(disclosure.effectiveAnnualRatePercent)} a year`,
    `7. Term: ${input.termMonths} monthly instalments`,
    '',
    'Payment schedule',
    `${pad('No.', 5)}${pad('Due date', 13)}${pad('Amount', 20)}${pad('Principal', 20)}Interest`,
    ...schedule.map((row) => `${pad(String(row.number), 5)}${pad(row.dueDate, 13)}${pad(phpAmount(row.amountCentavos), 20)}${pad(phpAmount(row.principalCentavos), 20)}${phpAmount(row.interestCentavos)}`),
    '',
    lateChargeTerms(input.lateCharge),
    'Prepayment: you may pay any amount early, or the whole loan at any time, without any prepayment charge; paying the loan off early, you owe only the principal, the interest due to that date and any late charges.',
    'Honeylend never asks for a deposit or any payment to release a loan.',
  ];
  return lines.join('\n');
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** GET /api/loans/:id/disclosure */
export interface DisclosureAnswer {
  statement: string;
  /** SHA-256 of the statement's UTF-8 text, lowercase hex: what POST /api/loans/:id/acceptance sends back. */
  hash: string;
  /** When the statement was accepted (null while it waits), and by when it must be. */
  acceptedAt: string | null;
  acceptBy: string;
}

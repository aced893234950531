import { DEFAULT_LATE_CHARGE_SETTINGS, type BusinessDate } from '@honeylend/contracts';
import { DomainError } from '../../platform/commands/decider.js';
import { loanDecider, type LoanCommand } from '../decide.js';
import { evolveLoan, initialLoanState, type ExistingLoan, type LoanEvent, type LoanState } from '../loan.js';

export const LOAN_ID = '3b7a1f52-9c4e-4d1a-8f0e-2a6b5c4d3e21';
export const MEMBER_ID = '5f0c6a52-3d8e-4f57-a7f4-0d6e4c1b9a01';
/**
 * ₱120,000 over 12 months at 2.5 %, applied for on 12 January and disbursed on 15 January 2026: twelve
 * ₱13,000 instalments due on the 15th (counted from disbursement), March 2026 to February 2027.
 */
export const INSTALMENT_CENTAVOS = 1_300_000;
export const OPENED_ON = '2026-01-15';

export const appliedAndApproved: LoanEvent[] = [
  {
    type: 'LoanApplied',
    data: { loanId: LOAN_ID, memberId: MEMBER_ID, loanNumber: 'LN-2026-000001', amountCentavos: 12_000_000, termMonths: 12, monthlyRateBps: 250, purpose: 'Store stock', appliedAt: '2026-01-12T02:00:00.000Z' },
  },
  { type: 'LoanStatusChanged', data: { loanId: LOAN_ID, memberId: MEMBER_ID, from: 'pending', to: 'approved', message: null, changedAt: '2026-01-15T01:00:00.000Z' } },
  // RA 3765: the borrower accepted the Disclosure Statement; disbursement follows, on the acceptance's business date.
  {
    type: 'LoanTermsAccepted',
    data: { loanId: LOAN_ID, memberId: MEMBER_ID, statementHash: 'd'.repeat(64), acceptedAt: '2026-01-15T02:00:00.000Z', ipAddress: '127.0.0.1', businessDate: OPENED_ON },
  },
];

/**
 * A loan's stream driven through its decider, as the routes and the day close drive it: each
 * command decided on the folded state and its events appended. A refusal changes nothing.
 */
export class ServicedLoan {
  events: LoanEvent[] = [];
  state: LoanState = initialLoanState();
  private ids = 0;

  constructor(history: LoanEvent[] = appliedAndApproved, openedOn: BusinessDate = OPENED_ON) {
    for (const event of history) this.append(event);
    this.run({ type: 'OpenLoanAccount', loanId: LOAN_ID, lateCharge: DEFAULT_LATE_CHARGE_SETTINGS, businessDate: openedOn, now: `${openedOn}T02:00:30.000Z` });
  }

  /** Another loan with this one's history so far (an alternative future). */
  copy(): ServicedLoan {
    const other = Object.create(ServicedLoan.prototype) as ServicedLoan;
    other.events = [...this.events];
    other.state = this.state;
    other.ids = this.ids;
    return other;
  }

  get loan(): ExistingLoan {
    if (!this.state.exists) throw new Error('no loan');
    return this.state;
  }

  get dueDates(): BusinessDate[] {
    return this.loan.account!.schedule.map((row) => row.dueDate);
  }

  append(event: LoanEvent): void {
    this.events.push(event);
    this.state = evolveLoan(this.state, event);
  }

  run(command: LoanCommand): LoanEvent[] {
    const events = loanDecider.decide(command, this.state);
    for (const event of events) this.append(event);
    return events;
  }

  /** Runs a command; a refusal answers its code instead of throwing. */
  attempt(command: LoanCommand): LoanEvent[] | string {
    try {
      return this.run(command);
    } catch (error) {
      if (error instanceof DomainError) return error.code;
      throw error;
    }
  }

  nextId(): string {
    this.ids += 1;
    return `00000000-0000-4000-8000-${String(this.ids).padStart(12, '0')}`;
  }

  closeThrough(through: BusinessDate): LoanEvent[] {
    return this.run({ type: 'CloseBusinessDays', loanId: LOAN_ID, through });
  }

  pay(amountCentavos: number, valueDate: BusinessDate, businessDate: BusinessDate = valueDate, repaymentId = this.nextId()) {
    return this.attempt({
      type: 'RecordRepayment',
      loanId: LOAN_ID,
      repaymentId,
      amountCentavos,
      channel: 'bank',
      source: 'admin',
      reference: `REF-${repaymentId}`,
      valueDate,
      businessDate,
      now: `${businessDate}T03:00:00.000Z`,
    });
  }

  reverse(repaymentId: string, businessDate: BusinessDate) {
    return this.attempt({ type: 'ReverseRepayment', loanId: LOAN_ID, repaymentId, reason: 'Cheque bounced', businessDate, now: `${businessDate}T03:00:00.000Z` });
  }

  waive(amountCentavos: number, businessDate: BusinessDate) {
    return this.attempt({ type: 'WaivePenalty', loanId: LOAN_ID, waiverId: this.nextId(), amountCentavos, reason: 'Goodwill waiver', businessDate, now: `${businessDate}T03:00:00.000Z` });
  }
}

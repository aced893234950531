import {
  acceptanceDeadline,
  accountOpening,
  canChangeLoanStatus,
  dayCloseEvents,
  evolveLoanAccount,
  findRepayment,
  findRepaymentByReferenceOnAnyChannel,
  formatPesos,
  isBuiltInLoanStatus,
  isCancellable,
  isDeletable,
  loanPosition,
  MONEY_SET_LOAN_STATUSES,
  REPAYMENT_CHANNEL_LABELS,
  reminderKey,
  type BusinessDate,
  type LateChargeSettings,
  type LoanAccount,
  type ReminderReason,
  type RecordedRepayment,
  type RepaymentChannel,
} from '@honeylend/contracts';
import { DomainError, type Decider } from '../platform/commands/decider.js';
import { evolveLoan, initialLoanState, type ExistingLoan, type LoanEvent, type LoanState } from './loan.js';

export const LOAN_MESSAGES = {
  notFound: 'Loan not found',
  accountIssueNeedsMessage: 'Tell the borrower what to fix: account_issue needs a message.',
  statusFollowsMoney: 'A loan becomes active when its accepted approval disburses it, completed only when it is fully repaid, and lapsed only when its approval was not accepted in time; none can be set by hand.',
  termsNotAccepted: "The borrower has not accepted this loan's Disclosure Statement yet; the money moves once they do.",
  approvalLapsed: 'This approval lapsed: the Disclosure Statement was not accepted within 7 days. Apply again for a new offer.',
  statementChanged: 'The Disclosure Statement changed since you read it. Read it again and accept the new one.',
  repaymentNotFound: 'Repayment not found',
  valueDateInFuture: 'The value date cannot be later than today (Manila business date).',
  valueDateBeforeDisbursement: 'The value date cannot be before the loan was disbursed.',
  repaymentDeclined: 'This repayment was declined and its amount returned to the wallet.',
  overpaymentConflict: 'With this back-dated repayment the later ones would pay more than the loan owes. Reverse the later repayment first.',
} as const;

const notActive = (status: string) => `This loan is ${statusLabel(status)}; repayments, reversals and waivers are taken only while it is active.`;
const aboveSettlement = (payoff: number) => `The amount is more than the ${formatPesos(payoff)} that pays this loan off today.`;
const aboveUnpaidPenalties = (penalties: number) => `Only ${formatPesos(penalties)} of late charges are unpaid; a waiver cannot be more.`;

/** Official-receipt number: the loan's number and the repayment's place on it (OR-2026-000123-001). */
export const receiptNumberOf = (loanNumber: string, ordinal: number) => `OR-${loanNumber.replace(/^LN-/, '')}-${String(ordinal).padStart(3, '0')}`;

export type LoanCommand =
  | {
      type: 'ApplyForLoan';
      loanId: string;
      memberId: string;
      loanNumber: string;
      amountCentavos: number;
      termMonths: number;
      monthlyRateBps: number;
      purpose: string;
      now: string;
    }
  | {
      type: 'ChangeLoanStatus';
      loanId: string;
      to: string;
      /** What the borrower reads about this status; required for account_issue. */
      message: string | null;
      /** The admin-defined statuses as the settings stream holds them now. */
      customStatuses: readonly string[];
      /**
       * Four eyes on an approval (design §11), judged on this stream's own terms, never on a read
       * model: `thresholdCentavos` when the approval is an admin's alone (refused from that amount
       * up, whatever the terms became since the admin looked), `grantedTerms` when a second admin
       * granted a request for exactly these terms (refused when the loan no longer has them).
       */
      fourEyes?: { thresholdCentavos: number } | { grantedTerms: LoanTerms };
      now: string;
    }
  | { type: 'ChangeLoanTerms'; loanId: string; amountCentavos?: number; termMonths?: number; now: string }
  | { type: 'DeleteLoan'; loanId: string; now: string }
  /** The borrower withdraws their own application while it is under review. */
  | { type: 'CancelApplication'; loanId: string; memberId: string; now: string }
  /**
   * RA 3765: the borrower accepts the Disclosure Statement whose SHA-256 they send back;
   * `currentStatementHash` is that of the statement as it reads now, written (by the caller) for
   * `businessDate`, the day this acceptance disburses on and the schedule counts from.
   */
  | { type: 'AcceptLoanTerms'; loanId: string; memberId: string; statementHash: string; currentStatementHash: string; ipAddress: string; businessDate: BusinessDate; now: string }
  /** An approval whose statement was not accepted within APPROVAL_ACCEPTANCE_DAYS lapses (no-op before then). */
  | { type: 'LapseApproval'; loanId: string; now: string }
  /**
   * Once the principal reached the wallet (LoanDisbursed on the member's stream): the account opens
   * with its schedule, on the business date of the acceptance that disbursed it (the schedule its
   * statement showed), or on `businessDate` for a loan with no such date recorded.
   */
  | { type: 'OpenLoanAccount'; loanId: string; lateCharge: LateChargeSettings; businessDate: BusinessDate; now: string }
  | {
      type: 'RecordRepayment';
      loanId: string;
      repaymentId: string;
      amountCentavos: number;
      channel: RepaymentChannel;
      source: 'wallet' | 'admin' | 'provider';
      reference: string;
      /** An admin's reason for recording a reference this loan already has (another channel, another amount); without it such a reference is refused. */
      duplicateReferenceReason?: string;
      valueDate: BusinessDate;
      businessDate: BusinessDate;
      now: string;
    }
  | {
      type: 'ReverseRepayment';
      loanId: string;
      repaymentId: string;
      reason: string;
      /**
       * Four eyes (design §11), judged on this stream: `required` when the settings put reversals under
       * four eyes and an admin asks alone (refused with APPROVAL_REQUIRED whenever it would reverse
       * anything), `grantedAmountCentavos` when a second admin granted the reversal of a repayment of
       * exactly that amount.
       */
      fourEyes?: 'required' | { grantedAmountCentavos: number };
      businessDate: BusinessDate;
      now: string;
    }
  | {
      type: 'WaivePenalty';
      loanId: string;
      waiverId: string;
      amountCentavos: number;
      reason: string;
      /** Four eyes: `required` when an admin alone asks for a waiver the settings put under four eyes (refused with APPROVAL_REQUIRED when it would waive). */
      fourEyes?: 'required';
      businessDate: BusinessDate;
      now: string;
    }
  /** A debited wallet repayment the loan refused: recorded so the refund and a receipt can never both happen. */
  | { type: 'DeclineWalletRepayment'; loanId: string; repaymentId: string; amountCentavos: number; reason: string; now: string }
  /** The day close: open every business date up to `through` for this loan. */
  | { type: 'CloseBusinessDays'; loanId: string; through: BusinessDate }
  | {
      type: 'RecordReminder';
      loanId: string;
      instalment: number;
      reason: ReminderReason;
      dueDate: BusinessDate;
      amountCentavos: number;
      notificationId: string;
      title: string;
      message: string;
      now: string;
    };

function existing(state: LoanState): ExistingLoan {
  if (!state.exists) throw new DomainError(404, 'LOAN_NOT_FOUND', LOAN_MESSAGES.notFound);
  return state;
}

const statusLabel = (status: string) => status.replaceAll('_', ' ');

/** The open account of an active loan: repayments, reversals and waivers need one. */
function openAccount(state: LoanState): { loan: ExistingLoan; account: LoanAccount } {
  const loan = existing(state);
  if (!loan.account || loan.account.paidOff) throw new DomainError(409, 'LOAN_NOT_ACTIVE', notActive(loan.status), { currentStatus: loan.status });
  return { loan, account: loan.account };
}

function referenceAlreadyRecorded(repayment: RecordedRepayment): string {
  return `Reference ${repayment.reference} is already on this loan: receipt ${repayment.receiptNumber}, ${formatPesos(repayment.amountCentavos)} by ${REPAYMENT_CHANNEL_LABELS[repayment.channel]}. If this is another payment, record it with a reason.`;
}

function decideRepayment(command: Extract<LoanCommand, { type: 'RecordRepayment' }>, state: LoanState): LoanEvent[] {
  const loan = existing(state);
  // The same repayment, or the same channel, reference and amount, again: already recorded (the caller answers the first receipt).
  if (loan.account && findRepayment(loan.account, command.repaymentId)) return [];
  const sameReference = loan.account && findRepaymentByReferenceOnAnyChannel(loan.account, command.reference);
  if (sameReference && command.duplicateReferenceReason === undefined) {
    if (sameReference.channel === command.channel && sameReference.amountCentavos === command.amountCentavos) return [];
    // One payment reported twice (on two channels, or once mistyped) would be counted twice: an admin must say why it is another.
    throw new DomainError(409, 'REFERENCE_ALREADY_RECORDED', referenceAlreadyRecorded(sameReference), {
      receiptNumber: sameReference.receiptNumber,
      channel: sameReference.channel,
      amount: sameReference.amountCentavos / 100,
    });
  }
  if (loan.account?.declinedRepaymentIds.includes(command.repaymentId)) {
    throw new DomainError(409, 'REPAYMENT_DECLINED', LOAN_MESSAGES.repaymentDeclined);
  }
  const { account } = openAccount(state);
  const { loanId, memberId } = loan;
  const { repaymentId, amountCentavos, channel, source, reference, duplicateReferenceReason, valueDate, businessDate, now } = command;
  if (valueDate > businessDate) throw new DomainError(400, 'VALUE_DATE_IN_FUTURE', LOAN_MESSAGES.valueDateInFuture, { fields: { valueDate: LOAN_MESSAGES.valueDateInFuture } });
  if (valueDate < account.openedOn) {
    throw new DomainError(400, 'VALUE_DATE_BEFORE_DISBURSEMENT', LOAN_MESSAGES.valueDateBeforeDisbursement, { fields: { valueDate: LOAN_MESSAGES.valueDateBeforeDisbursement } });
  }
  const payoff = loanPosition(account, businessDate).payoff.totalCentavos;
  if (amountCentavos > payoff) {
    const message = aboveSettlement(payoff);
    throw new DomainError(400, 'AMOUNT_ABOVE_PAYOFF', message, { fields: { amount: message }, payoff: payoff / 100 });
  }
  const received: LoanEvent = {
    type: 'RepaymentReceived',
    data: {
      loanId,
      memberId,
      repaymentId,
      receiptNumber: receiptNumberOf(loan.loanNumber, account.transactions.filter((tx) => tx.kind === 'repayment').length + 1),
      amountCentavos,
      channel,
      source,
      reference,
      ...(sameReference && duplicateReferenceReason !== undefined ? { duplicateReferenceReason } : {}),
      valueDate,
      businessDate,
      receivedAt: now,
    },
  };
  const after = evolveLoanAccount(account, received)!;
  const position = loanPosition(after, businessDate);
  if (position.overpaidCentavos > 0) throw new DomainError(409, 'OVERPAYMENT_CONFLICT', LOAN_MESSAGES.overpaymentConflict);
  if (!position.closed) return [received];
  return [
    received,
    {
      type: 'LoanPaidOff',
      data: {
        loanId,
        memberId,
        repaymentId: position.closed.repaymentId,
        valueDate: position.closed.valueDate,
        interestForgivenCentavos: position.closed.interestForgivenCentavos,
        businessDate,
        paidOffAt: now,
      },
    },
  ];
}

export function decideLoan(command: LoanCommand, state: LoanState): LoanEvent[] {
  switch (command.type) {
    case 'ApplyForLoan': {
      // A retried application (same loan id) changes nothing.
      if (state.exists || state.deleted) {
        if (state.memberId !== command.memberId) throw new DomainError(409, 'LOAN_EXISTS', 'This loan already exists');
        return [];
      }
      const { loanId, memberId, loanNumber, amountCentavos, termMonths, monthlyRateBps, purpose, now } = command;
      return [{ type: 'LoanApplied', data: { loanId, memberId, loanNumber, amountCentavos, termMonths, monthlyRateBps, purpose, appliedAt: now } }];
    }
    case 'ChangeLoanStatus': {
      const loan = existing(state);
      const { to, message, customStatuses } = command;
      // Asking for the status the loan already has is a retry (or a second admin agreeing): nothing to record.
      if (loan.status === to) return [];
      // Approving a loan whose approval already disbursed it (a retry, or a second admin agreeing): nothing more
      // here; the caller finishes what is left (a loan set active by hand before servicing existed gets its account).
      if (to === 'approved' && (loan.account || loan.status === 'active')) return [];
      if ((MONEY_SET_LOAN_STATUSES as readonly string[]).includes(to)) {
        throw new DomainError(409, 'ILLEGAL_STATUS_CHANGE', LOAN_MESSAGES.statusFollowsMoney, { currentStatus: loan.status });
      }
      if (!isBuiltInLoanStatus(to) && !customStatuses.includes(to)) {
        throw new DomainError(400, 'UNKNOWN_LOAN_STATUS', `"${to}" is not a loan status. Add it as a custom status first.`);
      }
      if (!canChangeLoanStatus(loan.status, to, customStatuses)) {
        throw new DomainError(409, 'ILLEGAL_STATUS_CHANGE', `This loan is ${statusLabel(loan.status)}; it cannot become ${statusLabel(to)}.`, {
          currentStatus: loan.status,
        });
      }
      if (to === 'account_issue' && !message) throw new DomainError(400, 'MESSAGE_REQUIRED', LOAN_MESSAGES.accountIssueNeedsMessage);
      if (to === 'approved' && command.fourEyes) assertFourEyes(loan, command.fourEyes);
      return [{ type: 'LoanStatusChanged', data: { loanId: loan.loanId, memberId: loan.memberId, from: loan.status, to, message, changedAt: command.now } }];
    }
    case 'ChangeLoanTerms': {
      const loan = existing(state);
      const amountCentavos = command.amountCentavos ?? loan.amountCentavos;
      const termMonths = command.termMonths ?? loan.termMonths;
      if (amountCentavos === loan.amountCentavos && termMonths === loan.termMonths) return [];
      if (loan.status !== 'pending') {
        throw new DomainError(409, 'LOAN_NOT_PENDING', `The amount and term can only change while the loan is pending; this loan is ${statusLabel(loan.status)}.`, {
          currentStatus: loan.status,
        });
      }
      return [
        {
          type: 'LoanTermsChanged',
          data: {
            loanId: loan.loanId,
            memberId: loan.memberId,
            amountCentavos,
            termMonths,
            previousAmountCentavos: loan.amountCentavos,
            previousTermMonths: loan.termMonths,
            changedAt: command.now,
          },
        },
      ];
    }
    case 'DeleteLoan': {
      // A retried deletion changes nothing; the caller goes on to close the member's application.
      if (!state.exists && state.deleted) return [];
      const loan = existing(state);
      if (!isDeletable(loan.status)) {
        throw new DomainError(409, 'LOAN_NOT_DELETABLE', `Only pending or denied loans can be deleted; this loan is ${statusLabel(loan.status)}.`, {
          currentStatus: loan.status,
        });
      }
      return [{ type: 'LoanDeleted', data: { loanId: loan.loanId, memberId: loan.memberId, status: loan.status, deletedAt: command.now } }];
    }
    case 'CancelApplication': {
      const loan = existing(state);
      // Another member's loan is not theirs to see, let alone cancel.
      if (loan.memberId !== command.memberId) throw new DomainError(404, 'LOAN_NOT_FOUND', LOAN_MESSAGES.notFound);
      // Cancelled already (a retry, or a second device): nothing more to record.
      if (loan.status === 'cancelled') return [];
      if (!isCancellable(loan.status)) {
        throw new DomainError(409, 'LOAN_NOT_CANCELLABLE', `Only an application still under review can be cancelled; this loan is ${statusLabel(loan.status)}.`, {
          currentStatus: loan.status,
        });
      }
      return [{ type: 'LoanApplicationCancelled', data: { loanId: loan.loanId, memberId: loan.memberId, from: loan.status, cancelledAt: command.now } }];
    }
    case 'AcceptLoanTerms': {
      const loan = existing(state);
      // Another member's loan is not theirs to see, let alone accept.
      if (loan.memberId !== command.memberId) throw new DomainError(404, 'LOAN_NOT_FOUND', LOAN_MESSAGES.notFound);
      // The same statement accepted again (a retry): already recorded.
      if (loan.acceptedTerms?.statementHash === command.statementHash) return [];
      if (loan.status === 'lapsed') throw new DomainError(409, 'APPROVAL_LAPSED', LOAN_MESSAGES.approvalLapsed);
      if (loan.status !== 'approved' || loan.acceptedTerms || !loan.approvedAt) {
        throw new DomainError(409, 'LOAN_NOT_AWAITING_ACCEPTANCE', `Only an approved loan's terms are accepted, once; this loan is ${statusLabel(loan.status)}.`, { currentStatus: loan.status });
      }
      if (Date.parse(command.now) >= Date.parse(acceptanceDeadline(loan.approvedAt))) throw new DomainError(409, 'APPROVAL_LAPSED', LOAN_MESSAGES.approvalLapsed);
      if (command.statementHash !== command.currentStatementHash) throw new DomainError(409, 'STATEMENT_CHANGED', LOAN_MESSAGES.statementChanged);
      const { loanId, memberId } = loan;
      return [{ type: 'LoanTermsAccepted', data: { loanId, memberId, statementHash: command.statementHash, acceptedAt: command.now, ipAddress: command.ipAddress, businessDate: command.businessDate } }];
    }
    case 'LapseApproval': {
      if (!state.exists) return [];
      const loan = state;
      if (loan.status !== 'approved' || loan.acceptedTerms || loan.account || !loan.approvedAt) return [];
      if (Date.parse(command.now) < Date.parse(acceptanceDeadline(loan.approvedAt))) return [];
      return [{ type: 'LoanApprovalLapsed', data: { loanId: loan.loanId, memberId: loan.memberId, approvedAt: loan.approvedAt, lapsedAt: command.now } }];
    }
    case 'OpenLoanAccount': {
      const loan = existing(state);
      // A retried approval opens the account once.
      if (loan.account) return [];
      // RA 3765: no money moves before the borrower accepted the Disclosure Statement.
      if (loan.status === 'approved' && !loan.acceptedTerms) throw new DomainError(409, 'TERMS_NOT_ACCEPTED', LOAN_MESSAGES.termsNotAccepted);
      // An active loan without an account was set active by hand before disbursement opened accounts.
      if (loan.status !== 'approved' && loan.status !== 'active') {
        throw new DomainError(409, 'LOAN_NOT_APPROVED', `Only an approved loan is disbursed; this loan is ${statusLabel(loan.status)}.`, { currentStatus: loan.status });
      }
      // The schedule counts from the disbursement, never from the application (spec §9): a loan approved
      // months after it was applied for owes nothing for the time before the borrower had the money.
      const opening = accountOpening(
        { loanId: loan.loanId, memberId: loan.memberId, principalCentavos: loan.amountCentavos, monthlyRateBps: loan.monthlyRateBps, termMonths: loan.termMonths },
        command.lateCharge,
        loan.acceptedTerms?.businessDate ?? command.businessDate,
        command.now,
      );
      return [{ type: 'LoanAccountOpened', data: opening }];
    }
    case 'RecordRepayment':
      return decideRepayment(command, state);
    case 'ReverseRepayment': {
      const loan = existing(state);
      const repayment = loan.account && findRepayment(loan.account, command.repaymentId);
      if (!repayment) throw new DomainError(404, 'REPAYMENT_NOT_FOUND', LOAN_MESSAGES.repaymentNotFound);
      if (repayment.reversal) return [];
      openAccount(state);
      if (command.fourEyes === 'required') {
        throw new DomainError(409, APPROVAL_REQUIRED_CODE, 'Reversing a repayment needs a second admin.', { repaymentId: repayment.repaymentId, amountCentavos: repayment.amountCentavos });
      }
      if (command.fourEyes && command.fourEyes.grantedAmountCentavos !== repayment.amountCentavos) {
        throw new DomainError(409, APPROVAL_TERMS_CHANGED_CODE, 'This repayment is not the one whose reversal was approved; ask for a new approval.', {
          approved: { amountCentavos: command.fourEyes.grantedAmountCentavos },
          current: { amountCentavos: repayment.amountCentavos },
        });
      }
      const { loanId, memberId } = loan;
      return [{ type: 'RepaymentReversed', data: { loanId, memberId, repaymentId: command.repaymentId, reason: command.reason, businessDate: command.businessDate, reversedAt: command.now } }];
    }
    case 'WaivePenalty': {
      const { loan, account } = openAccount(state);
      if (account.transactions.some((tx) => tx.kind === 'waiver' && tx.waiverId === command.waiverId)) return [];
      const unpaid = loanPosition(account, command.businessDate).outstanding.penaltiesCentavos;
      if (command.amountCentavos > unpaid) {
        const message = aboveUnpaidPenalties(unpaid);
        throw new DomainError(400, 'WAIVER_ABOVE_PENALTIES', message, { fields: { amount: message }, unpaidPenalties: unpaid / 100 });
      }
      if (command.fourEyes === 'required') throw new DomainError(409, APPROVAL_REQUIRED_CODE, 'Waiving late charges needs a second admin.', { amountCentavos: command.amountCentavos });
      const { waiverId, amountCentavos, reason, businessDate, now } = command;
      return [{ type: 'PenaltyWaived', data: { loanId: loan.loanId, memberId: loan.memberId, waiverId, amountCentavos, reason, businessDate, waivedAt: now } }];
    }
    case 'DeclineWalletRepayment': {
      const loan = existing(state);
      // Received after all (someone else recorded it first), or declined already: nothing to decline.
      if (!loan.account || findRepayment(loan.account, command.repaymentId) || loan.account.declinedRepaymentIds.includes(command.repaymentId)) return [];
      const { repaymentId, amountCentavos, reason, now } = command;
      return [{ type: 'WalletRepaymentDeclined', data: { loanId: loan.loanId, memberId: loan.memberId, repaymentId, amountCentavos, reason, declinedAt: now } }];
    }
    case 'CloseBusinessDays': {
      // Loans not yet disbursed, and closed ones, have no days to close.
      if (!state.exists || !state.account || state.account.paidOff) return [];
      return dayCloseEvents(state.account, command.through);
    }
    case 'RecordReminder': {
      const loan = existing(state);
      if (!loan.account || loan.account.paidOff || loan.account.remindersSent.includes(reminderKey(command.instalment, command.reason))) return [];
      const { instalment, reason, dueDate, amountCentavos, notificationId, title, message, now } = command;
      return [{ type: 'RepaymentReminderSent', data: { loanId: loan.loanId, memberId: loan.memberId, instalment, reason, dueDate, amountCentavos, notificationId, title, message, sentAt: now } }];
    }
  }
}

export const loanDecider: Decider<LoanState, LoanCommand, LoanEvent> = {
  initialState: initialLoanState,
  evolve: evolveLoan,
  decide: decideLoan,
};

/** What a loan approval under four eyes is bound to: the amount, the term and the rate the second admin saw. */
export interface LoanTerms {
  amountCentavos: number;
  termMonths: number;
  monthlyRateBps: number;
}

export const APPROVAL_REQUIRED_CODE = 'APPROVAL_REQUIRED';
export const APPROVAL_TERMS_CHANGED_CODE = 'APPROVAL_TERMS_CHANGED';

function assertFourEyes(loan: { amountCentavos: number; termMonths: number; monthlyRateBps: number }, fourEyes: { thresholdCentavos: number } | { grantedTerms: LoanTerms }): void {
  if ('thresholdCentavos' in fourEyes) {
    if (loan.amountCentavos >= fourEyes.thresholdCentavos) {
      throw new DomainError(409, APPROVAL_REQUIRED_CODE, 'Approving a loan of this amount needs a second admin.', { amountCentavos: loan.amountCentavos });
    }
    return;
  }
  const granted = fourEyes.grantedTerms;
  if (granted.amountCentavos !== loan.amountCentavos || granted.termMonths !== loan.termMonths || granted.monthlyRateBps !== loan.monthlyRateBps) {
    throw new DomainError(409, APPROVAL_TERMS_CHANGED_CODE, "The loan's terms changed after this approval was requested; ask for a new approval of the terms it has now.", {
      approved: granted,
      current: { amountCentavos: loan.amountCentavos, termMonths: loan.termMonths, monthlyRateBps: loan.monthlyRateBps },
    });
  }
}

import { formatPesos, type DocumentKind, type MemberStatus, type ProfileChanges } from '@honeylend/contracts';
import { DomainError, type Decider } from '../domain/decider.js';
import {
  areDocumentsComplete,
  evolveMember,
  hasPendingWithdrawal,
  initialMemberState,
  isPersonalInfoComplete,
  openLoanIds,
  type ExistingMember,
  type MemberEvent,
  type MemberState,
} from './member.js';

export const MINIMUM_WITHDRAWAL_CENTAVOS = 100_000;

export const MEMBER_MESSAGES = {
  alreadyRegistered: 'You already have an account, please login',
  notFound: 'Account not found',
  suspended: 'Your account has been suspended. Please contact support.',
  verificationRequired: 'You need to complete your account verification before applying for a loan.',
  loanExists: 'You already have a loan application. You can apply again once it is closed.',
  documentNotFound: 'Document not found. Upload the image first, then use the url the upload answered.',
  minimumWithdrawal: 'Minimum withdrawal amount is ₱1,000',
  insufficientFunds: 'Insufficient funds - Unavailable to request a withdrawal',
  otpAlreadyUsed: 'This code was already used — see your withdrawals.',
  withdrawalNotFound: 'Withdrawal not found',
  openLoan: 'This member has an open loan. Close it first: deny or complete it, or delete a pending application.',
  pendingWithdrawal: 'This member has a pending withdrawal. Complete or reject it first.',
  walletRepaymentNotFound: 'Wallet repayment not found',
} as const;

const walletTooLow = (balanceCentavos: number) => `Your wallet holds ${formatPesos(balanceCentavos)}; a repayment from it cannot be more.`;

const balanceBelowZero = (balanceCentavos: number) =>
  `This adjustment would take the balance below zero (the available balance is ${formatPesos(balanceCentavos)}).`;
const balanceLeft = (balanceCentavos: number) =>
  `This member still has ${formatPesos(balanceCentavos)} in their wallet. Pay it out or post a balance adjustment first.`;

export type MemberCommand =
  | {
      type: 'RegisterMember';
      memberId: string;
      phone: string;
      fullName: string;
      email: string | null;
      passwordHash: string;
      registeredBy: 'self' | 'admin';
      now: string;
    }
  | { type: 'UpdateProfile'; memberId: string; changes: ProfileChanges; documents?: Partial<Record<DocumentKind, string>>; now: string }
  | {
      type: 'RecordUpload';
      memberId: string;
      fileId: string;
      contentType: 'image/jpeg' | 'image/png' | 'image/webp';
      sizeBytes: number;
      sha256: string;
      uploadedBy: string;
      now: string;
    }
  | { type: 'SetIdentityDocument'; memberId: string; kind: DocumentKind; fileId: string; now: string }
  | { type: 'OpenLoanApplication'; memberId: string; loanId: string; now: string }
  | { type: 'DisburseLoan'; memberId: string; loanId: string; amountCentavos: number; now: string }
  | { type: 'RequestWithdrawalOtp'; memberId: string; challengeId: string; amountCentavos: number; now: string }
  | {
      type: 'RequestWithdrawal';
      memberId: string;
      withdrawalId: string;
      withdrawalNumber: string;
      amountCentavos: number;
      bankName: string;
      bankAccountNumber: string;
      challengeId: string;
      now: string;
    }
  | { type: 'CompleteWithdrawal'; memberId: string; withdrawalId: string; now: string; payoutReference?: string }
  | { type: 'RejectWithdrawal'; memberId: string; withdrawalId: string; reason: string | null; now: string }
  | { type: 'NotifyMember'; memberId: string; notificationId: string; title: string; message: string; type_: 'loan_update' | 'withdrawal_update' | 'account' | 'general'; now: string }
  /** An admin's edit: works on suspended accounts too, and records only what really changes. */
  | {
      type: 'AdminUpdateMember';
      memberId: string;
      changes: ProfileChanges;
      /** E.164, already reserved for this member on its phone stream. */
      phone?: string;
      creditScore?: number;
      status?: MemberStatus;
      documents?: Partial<Record<DocumentKind, string>>;
      now: string;
    }
  | { type: 'ResetPassword'; memberId: string; passwordHash: string; now: string }
  | { type: 'AdjustBalance'; memberId: string; adjustmentId: string; amountCentavos: number; reason: string; now: string }
  | { type: 'DeleteMember'; memberId: string; now: string }
  | { type: 'CloseLoanApplication'; memberId: string; loanId: string; closing: 'denied' | 'completed' | 'deleted'; now: string }
  /** The first half of a wallet repayment: the money leaves the wallet, never below zero, once per repayment id. */
  | { type: 'DebitWalletRepayment'; memberId: string; loanId: string; repaymentId: string; amountCentavos: number; now: string }
  /** The loan refused a debited repayment, or an admin reversed it: the money goes back, once. */
  | { type: 'RefundWalletRepayment'; memberId: string; repaymentId: string; reason: 'refused' | 'reversed'; now: string };

function existing(state: MemberState): ExistingMember {
  if (!state.exists) throw new DomainError(404, 'MEMBER_NOT_FOUND', MEMBER_MESSAGES.notFound);
  return state;
}

function active(state: MemberState): ExistingMember {
  const member = existing(state);
  if (member.status === 'suspended') throw new DomainError(403, 'ACCOUNT_SUSPENDED', MEMBER_MESSAGES.suspended, { accountStatus: 'suspended' });
  return member;
}

function assertCanWithdraw(member: ExistingMember, amountCentavos: number): void {
  if (amountCentavos < MINIMUM_WITHDRAWAL_CENTAVOS) throw new DomainError(400, 'WITHDRAWAL_TOO_SMALL', MEMBER_MESSAGES.minimumWithdrawal);
  if (member.balanceCentavos <= 0 || amountCentavos > member.balanceCentavos) {
    throw new DomainError(400, 'INSUFFICIENT_FUNDS', MEMBER_MESSAGES.insufficientFunds);
  }
}

function pendingWithdrawal(member: ExistingMember, withdrawalId: string) {
  const held = member.withdrawals.get(withdrawalId);
  if (!held) throw new DomainError(404, 'WITHDRAWAL_NOT_FOUND', MEMBER_MESSAGES.withdrawalNotFound);
  if (held.status !== 'pending') throw new DomainError(409, 'WITHDRAWAL_ALREADY_DECIDED', `This withdrawal is already ${held.status}`, { status: held.status });
  return held;
}

/** Only files uploaded for this member may become their documents; setting the same file again records nothing. */
function documentEvents(member: ExistingMember, memberId: string, documents: Partial<Record<DocumentKind, string>>, now: string): MemberEvent[] {
  const events: MemberEvent[] = [];
  for (const [kind, fileId] of Object.entries(documents) as [DocumentKind, string][]) {
    if (!member.uploadedFileIds.has(fileId)) throw new DomainError(404, 'DOCUMENT_NOT_FOUND', MEMBER_MESSAGES.documentNotFound, { field: `${kind}Url` });
    if (member.documents[kind] !== fileId) events.push({ type: 'IdentityDocumentSet', data: { memberId, kind, fileId, setAt: now } });
  }
  return events;
}

/** The profile fields whose value differs from what the member has, so the audit trail shows edits, not re-saves. */
function changedProfileFields(member: ExistingMember, changes: ProfileChanges): ProfileChanges {
  const changed: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(changes)) {
    if (value !== undefined && member.profile[field as keyof ProfileChanges] !== value) changed[field] = value;
  }
  return changed as ProfileChanges;
}

export function decideMember(command: MemberCommand, state: MemberState): MemberEvent[] {
  switch (command.type) {
    case 'RegisterMember': {
      if (state.exists || state.deleted) throw new DomainError(409, 'ALREADY_REGISTERED', MEMBER_MESSAGES.alreadyRegistered, { alreadyRegistered: true });
      const { memberId, phone, fullName, email, passwordHash, registeredBy, now } = command;
      return [{ type: 'MemberRegistered', data: { memberId, phone, fullName, email, passwordHash, registeredAt: now, registeredBy } }];
    }
    case 'UpdateProfile': {
      const member = active(state);
      const changes = changedProfileFields(member, command.changes);
      const events: MemberEvent[] = [];
      if (Object.keys(changes).length > 0) events.push({ type: 'MemberProfileUpdated', data: { memberId: command.memberId, changes, updatedAt: command.now } });
      events.push(...documentEvents(member, command.memberId, command.documents ?? {}, command.now));
      return events;
    }
    case 'RecordUpload': {
      existing(state);
      const { memberId, fileId, contentType, sizeBytes, sha256, uploadedBy, now } = command;
      return [{ type: 'DocumentUploaded', data: { memberId, fileId, contentType, sizeBytes, sha256, uploadedBy, uploadedAt: now } }];
    }
    case 'SetIdentityDocument': {
      const member = active(state);
      if (!member.uploadedFileIds.has(command.fileId)) throw new DomainError(404, 'DOCUMENT_NOT_FOUND', MEMBER_MESSAGES.documentNotFound);
      if (member.documents[command.kind] === command.fileId) return [];
      return [{ type: 'IdentityDocumentSet', data: { memberId: command.memberId, kind: command.kind, fileId: command.fileId, setAt: command.now } }];
    }
    case 'OpenLoanApplication': {
      const member = active(state);
      if (member.loanIds.includes(command.loanId)) return [];
      if (!isPersonalInfoComplete(member.profile) || !areDocumentsComplete(member.documents)) {
        throw new DomainError(403, 'VERIFICATION_REQUIRED', MEMBER_MESSAGES.verificationRequired);
      }
      const open = openLoanIds(member);
      if (open.length > 0) throw new DomainError(409, 'LOAN_EXISTS', MEMBER_MESSAGES.loanExists, { loanId: open.at(-1) });
      return [{ type: 'LoanApplicationOpened', data: { memberId: command.memberId, loanId: command.loanId, openedAt: command.now } }];
    }
    case 'DisburseLoan': {
      const member = existing(state);
      // Approval may be retried or raced; the principal reaches the wallet once.
      if (member.disbursedLoanIds.has(command.loanId)) return [];
      return [{ type: 'LoanDisbursed', data: { memberId: command.memberId, loanId: command.loanId, amountCentavos: command.amountCentavos, disbursedAt: command.now } }];
    }
    case 'RequestWithdrawalOtp': {
      const member = active(state);
      assertCanWithdraw(member, command.amountCentavos);
      return [
        { type: 'WithdrawalOtpRequested', data: { memberId: command.memberId, challengeId: command.challengeId, amountCentavos: command.amountCentavos, requestedAt: command.now } },
      ];
    }
    case 'RequestWithdrawal': {
      const member = active(state);
      if (member.withdrawals.has(command.withdrawalId)) return [];
      if (member.usedChallengeIds.has(command.challengeId)) throw new DomainError(400, 'OTP_ALREADY_USED', MEMBER_MESSAGES.otpAlreadyUsed);
      assertCanWithdraw(member, command.amountCentavos);
      const { memberId, withdrawalId, withdrawalNumber, amountCentavos, bankName, bankAccountNumber, challengeId, now } = command;
      return [
        { type: 'WithdrawalRequested', data: { memberId, withdrawalId, withdrawalNumber, amountCentavos, bankName, bankAccountNumber, challengeId, requestedAt: now } },
      ];
    }
    case 'CompleteWithdrawal': {
      pendingWithdrawal(existing(state), command.withdrawalId);
      const { memberId, withdrawalId, now, payoutReference } = command;
      return [{ type: 'WithdrawalCompleted', data: { memberId, withdrawalId, processedAt: now, ...(payoutReference ? { payoutReference } : {}) } }];
    }
    case 'RejectWithdrawal': {
      pendingWithdrawal(existing(state), command.withdrawalId);
      return [
        { type: 'WithdrawalRejected', data: { memberId: command.memberId, withdrawalId: command.withdrawalId, reason: command.reason, rejectedAt: command.now } },
      ];
    }
    case 'NotifyMember': {
      existing(state);
      const { memberId, notificationId, title, message, type_, now } = command;
      return [{ type: 'MemberNotified', data: { memberId, notificationId, title, message, type: type_, notifiedAt: now } }];
    }
    case 'AdminUpdateMember': {
      const member = existing(state);
      const { memberId, now } = command;
      const events: MemberEvent[] = [];
      const changes = changedProfileFields(member, command.changes);
      if (Object.keys(changes).length > 0) events.push({ type: 'MemberProfileUpdated', data: { memberId, changes, updatedAt: now } });
      if (command.phone !== undefined && command.phone !== member.phone) {
        events.push({ type: 'MemberPhoneChanged', data: { memberId, from: member.phone, to: command.phone, changedAt: now } });
      }
      if (command.creditScore !== undefined && command.creditScore !== member.creditScore) {
        events.push({ type: 'MemberCreditScoreChanged', data: { memberId, from: member.creditScore, to: command.creditScore, changedAt: now } });
      }
      events.push(...documentEvents(member, memberId, command.documents ?? {}, now));
      // Last, so a suspension is the final word of the edit that carries it.
      if (command.status !== undefined && command.status !== member.status) {
        events.push({ type: 'MemberStatusChanged', data: { memberId, from: member.status, to: command.status, changedAt: now } });
      }
      return events;
    }
    case 'ResetPassword': {
      existing(state);
      return [{ type: 'MemberPasswordReset', data: { memberId: command.memberId, passwordHash: command.passwordHash, resetAt: command.now } }];
    }
    case 'AdjustBalance': {
      const member = existing(state);
      if (member.balanceCentavos + command.amountCentavos < 0) {
        throw new DomainError(409, 'BALANCE_BELOW_ZERO', balanceBelowZero(member.balanceCentavos), { balance: member.balanceCentavos / 100 });
      }
      const { memberId, adjustmentId, amountCentavos, reason, now } = command;
      return [{ type: 'BalanceAdjusted', data: { memberId, adjustmentId, amountCentavos, reason, adjustedAt: now } }];
    }
    case 'DeleteMember': {
      // A retried deletion changes nothing; the caller goes on to free the phone.
      if (!state.exists && state.deleted) return [];
      const member = existing(state);
      const open = openLoanIds(member);
      if (open.length > 0) throw new DomainError(409, 'MEMBER_HAS_OPEN_LOAN', MEMBER_MESSAGES.openLoan, { loanId: open.at(-1) });
      if (hasPendingWithdrawal(member)) throw new DomainError(409, 'MEMBER_HAS_PENDING_WITHDRAWAL', MEMBER_MESSAGES.pendingWithdrawal);
      if (member.balanceCentavos > 0) throw new DomainError(409, 'MEMBER_HAS_BALANCE', balanceLeft(member.balanceCentavos), { balance: member.balanceCentavos / 100 });
      return [{ type: 'MemberDeleted', data: { memberId: command.memberId, phone: member.phone, deletedAt: command.now } }];
    }
    case 'DebitWalletRepayment': {
      const member = active(state);
      if (member.walletRepayments.has(command.repaymentId)) return [];
      if (command.amountCentavos > member.balanceCentavos) {
        const message = walletTooLow(member.balanceCentavos);
        throw new DomainError(400, 'INSUFFICIENT_FUNDS', message, { fields: { amount: message }, balance: member.balanceCentavos / 100 });
      }
      const { memberId, loanId, repaymentId, amountCentavos, now } = command;
      return [{ type: 'WalletRepaymentDebited', data: { memberId, loanId, repaymentId, amountCentavos, debitedAt: now } }];
    }
    case 'RefundWalletRepayment': {
      const member = existing(state);
      const debited = member.walletRepayments.get(command.repaymentId);
      if (!debited) throw new DomainError(404, 'WALLET_REPAYMENT_NOT_FOUND', MEMBER_MESSAGES.walletRepaymentNotFound);
      if (debited.refunded) return [];
      const { memberId, repaymentId, reason, now } = command;
      return [{ type: 'WalletRepaymentRefunded', data: { memberId, loanId: debited.loanId, repaymentId, amountCentavos: debited.amountCentavos, reason, refundedAt: now } }];
    }
    case 'CloseLoanApplication': {
      if (!state.exists && state.deleted) return [];
      const member = existing(state);
      if (!member.loanIds.includes(command.loanId) || member.closedLoanIds.has(command.loanId)) return [];
      const { memberId, loanId, closing, now } = command;
      return [{ type: 'LoanApplicationClosed', data: { memberId, loanId, closing, closedAt: now } }];
    }
  }
}

export const memberDecider: Decider<MemberState, MemberCommand, MemberEvent> = {
  initialState: initialMemberState,
  evolve: evolveMember,
  decide: decideMember,
};

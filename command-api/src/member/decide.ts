import type { DocumentKind, ProfileChanges } from '@honeylend/contracts';
import { DomainError, type Decider } from '../domain/decider.js';
import {
  areDocumentsComplete,
  evolveMember,
  initialMemberState,
  isPersonalInfoComplete,
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
  otpAlreadyUsed: 'This code has already been used. Please request a new code.',
  withdrawalNotFound: 'Withdrawal not found',
} as const;

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
  | { type: 'CompleteWithdrawal'; memberId: string; withdrawalId: string; now: string }
  | { type: 'RejectWithdrawal'; memberId: string; withdrawalId: string; reason: string | null; now: string }
  | { type: 'NotifyMember'; memberId: string; notificationId: string; title: string; message: string; type_: 'loan_update' | 'withdrawal_update' | 'account' | 'general'; now: string };

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

export function decideMember(command: MemberCommand, state: MemberState): MemberEvent[] {
  switch (command.type) {
    case 'RegisterMember': {
      if (state.exists) throw new DomainError(409, 'ALREADY_REGISTERED', MEMBER_MESSAGES.alreadyRegistered, { alreadyRegistered: true });
      const { memberId, phone, fullName, email, passwordHash, registeredBy, now } = command;
      return [{ type: 'MemberRegistered', data: { memberId, phone, fullName, email, passwordHash, registeredAt: now, registeredBy } }];
    }
    case 'UpdateProfile': {
      const member = active(state);
      // Only what really changes is recorded, so the audit trail shows edits, not re-saves.
      const changes: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(command.changes)) {
        if (value !== undefined && member.profile[field as keyof ProfileChanges] !== value) changes[field] = value;
      }
      const events: MemberEvent[] = [];
      if (Object.keys(changes).length > 0) events.push({ type: 'MemberProfileUpdated', data: { memberId: command.memberId, changes, updatedAt: command.now } });
      for (const [kind, fileId] of Object.entries(command.documents ?? {}) as [DocumentKind, string][]) {
        if (!member.uploadedFileIds.has(fileId)) throw new DomainError(404, 'DOCUMENT_NOT_FOUND', MEMBER_MESSAGES.documentNotFound, { field: `${kind}Url` });
        if (member.documents[kind] !== fileId) events.push({ type: 'IdentityDocumentSet', data: { memberId: command.memberId, kind, fileId, setAt: command.now } });
      }
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
      if (member.loanIds.length > 0) throw new DomainError(409, 'LOAN_EXISTS', MEMBER_MESSAGES.loanExists, { loanId: member.loanIds.at(-1) });
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
      return [{ type: 'WithdrawalCompleted', data: { memberId: command.memberId, withdrawalId: command.withdrawalId, processedAt: command.now } }];
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
  }
}

export const memberDecider: Decider<MemberState, MemberCommand, MemberEvent> = {
  initialState: initialMemberState,
  evolve: evolveMember,
  decide: decideMember,
};

import { WITHDRAWAL_HOLD_MS, formatPesos, maskedDestination, mayApplyAgain, type DocumentKind, type LoanClosing, type MemberStatus, type ProfileChanges, type WithdrawalHoldReason } from '@honeylend/contracts';
import { DomainError, type Decider } from '../platform/commands/decider.js';
import {
  areDocumentsComplete,
  closureObligations,
  evolveMember,
  hasPendingWithdrawal,
  holdAt,
  initialMemberState,
  isPersonalInfoComplete,
  isPhoneVerified,
  openLoanIds,
  applicationStandings,
  payoutAccount,
  sameAccount,
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
  phoneNotVerified: 'Confirm your phone number before applying for a loan: we text you a code.',
  phoneChanged: 'Your phone number changed since the code was sent. Request a new code.',
  loanExists: 'You already have a loan application. You can apply again once it is closed.',
  documentNotFound: 'Document not found. Upload the image first, then use the url the upload answered.',
  minimumWithdrawal: 'Minimum withdrawal amount is ₱1,000',
  insufficientFunds: 'Insufficient funds - Unavailable to request a withdrawal',
  otpAlreadyUsed: 'This code was already used — see your withdrawals.',
  withdrawalNotFound: 'Withdrawal not found',
  openLoan: 'This member has an open loan. Close it first: deny or complete it, or delete a pending application.',
  pendingWithdrawal: 'This member has a pending withdrawal. Complete or reject it first.',
  walletRepaymentNotFound: 'Wallet repayment not found',
  noPayoutAccount: 'Add your bank account to your profile first: withdrawals are paid only to the account on your profile.',
  otpForOtherAccount: 'This code was sent for another bank account. Please request a new code.',
  bankChangeNeedsCode: 'Changing your bank account needs the code we text to your phone. Request a code, then save again with it.',
  bankChangeByMemberOnly: 'Only the member can change their bank account, with a code sent to their phone. Staff cannot change it.',
  phoneByMainAdminOnly: "Only the main admin can change a member's phone number.",
  resetWhileSuspended: 'This member is suspended and could not use a reset code. Reactivate the account first.',
  identityChangedByYou: "You changed this member's phone number or started a reset of their password in the last 24 hours, so another admin must complete this withdrawal.",
  tokenOutdated: 'Please sign in to continue',
  accountClosed: 'This account was closed at your request. For anything about it, contact the data protection officer named in the privacy notice.',
  consentRequired: 'Please read and accept our privacy notice before applying for a loan.',
  noticeChanged: 'The privacy notice changed since you read it. Please read the current one and accept it.',
} as const;

/** A body naming an account other than the profile's: refused, and told where withdrawals do go. */
const otherDestination = (account: { bankName: string; bankAccountNumber: string }) =>
  `Withdrawals are paid only to the bank account on your profile (${maskedDestination(account.bankName, account.bankAccountNumber)}). To use another account, change it on your profile first.`;

const heldUntil = (hold: { until: string }) => `Withdrawals are paused until ${hold.until} to protect your money. You can withdraw again after that.`;

const walletTooLow = (balanceCentavos: number) => `Your wallet holds ${formatPesos(balanceCentavos)}; a repayment from it cannot be more.`;

const balanceBelowZero = (balanceCentavos: number) => `This adjustment would take the balance below zero (the available balance is ${formatPesos(balanceCentavos)}).`;
const balanceLeft = (balanceCentavos: number) => `This member still has ${formatPesos(balanceCentavos)} in their wallet. Pay it out or post a balance adjustment first.`;

export type MemberCommand =
  | {
      type: 'RegisterMember';
      memberId: string;
      phone: string;
      fullName: string;
      email: string | null;
      passwordHash: string;
      registeredBy: 'self' | 'admin';
      /** The demo seed's people: marked so that no text is ever sent to their numbers. */
      demo?: true;
      now: string;
    }
  | {
      type: 'UpdateProfile';
      memberId: string;
      changes: ProfileChanges;
      documents?: Partial<Record<DocumentKind, string>>;
      /** A code texted to the member's phone confirmed this new bank account. */
      bankChangeConfirmed?: boolean;
      tokenVersion?: number;
      now: string;
    }
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
  /** `privacyNoticeVersion`: the notice in force; the member must have consented to it (RA 10173 sec. 12). */
  | { type: 'OpenLoanApplication'; memberId: string; loanId: string; privacyNoticeVersion: string; now: string }
  /** The member accepted the privacy notice of `noticeVersion`, which must be the one in force (`currentVersion`). */
  | { type: 'GiveConsent'; memberId: string; noticeVersion: string; currentVersion: string; now: string }
  /** The member asks to close the account and stop processing (RA 10173 sec. 16(e)). */
  | { type: 'RequestClosure'; memberId: string; reason: string; tokenVersion?: number; now: string }
  | { type: 'DisburseLoan'; memberId: string; loanId: string; amountCentavos: number; now: string }
  | {
      type: 'RequestWithdrawalOtp';
      memberId: string;
      challengeId: string;
      amountCentavos: number;
      /** The version of the token asking: an older one (password reset, suspension) moves no money, whatever the read models say. */
      tokenVersion?: number;
      now: string;
    }
  | {
      type: 'RequestWithdrawal';
      memberId: string;
      withdrawalId: string;
      withdrawalNumber: string;
      amountCentavos: number;
      /** What the request named, if anything: it must be the profile's account, which is where the money goes. */
      bankName?: string;
      bankAccountNumber?: string;
      challengeId: string;
      tokenVersion?: number;
      now: string;
    }
  /** `now` is when the admin decides; `processedAt` (default now) when the money was sent. */
  | { type: 'CompleteWithdrawal'; memberId: string; withdrawalId: string; adminId?: string; processedAt?: string; now: string; payoutReference?: string }
  /** Holds new withdrawals for a day (too many wrong codes); other holds come with the change that causes them. */
  | { type: 'HoldWithdrawals'; memberId: string; reason: WithdrawalHoldReason; now: string }
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
      /** Who edits: a phone number is the main admin's to change. */
      actor?: { id: string; role: 'admin' | 'superadmin' };
      now: string;
    }
  /** Staff start a reset for a member who lost access: the member sets the password, with a texted code; sessions end now. */
  | { type: 'StartPasswordReset'; memberId: string; startedBy: string; now: string }
  /** The member's own new password; the route has checked the proof (the current password, or a texted code). */
  | { type: 'ChangePassword'; memberId: string; passwordHash: string; proof: 'current-password' | 'texted-code'; now: string }
  | { type: 'SignOutEverywhere'; memberId: string; now: string }
  /** The member proved `phone` with a texted code, and holds its reservation (phoneReservation.ts). */
  | { type: 'VerifyPhone'; memberId: string; phone: string; now: string }
  | { type: 'AdjustBalance'; memberId: string; adjustmentId: string; amountCentavos: number; reason: string; now: string }
  | { type: 'DeleteMember'; memberId: string; now: string }
  | { type: 'CloseLoanApplication'; memberId: string; loanId: string; closing: LoanClosing; now: string }
  /** The first half of a wallet repayment: the money leaves the wallet, never below zero, once per repayment id. */
  | { type: 'DebitWalletRepayment'; memberId: string; loanId: string; repaymentId: string; amountCentavos: number; now: string }
  /** The loan refused a debited repayment, or an admin reversed it: the money goes back, once. */
  | { type: 'RefundWalletRepayment'; memberId: string; repaymentId: string; reason: 'refused' | 'reversed'; now: string };

function existing(state: MemberState): ExistingMember {
  if (!state.exists) throw new DomainError(404, 'MEMBER_NOT_FOUND', MEMBER_MESSAGES.notFound);
  // Closed at the member's request: the processing of their data stopped (RA 10173 sec. 16(e)).
  if (state.closedAt !== null) throw new DomainError(409, 'ACCOUNT_CLOSED', MEMBER_MESSAGES.accountClosed, { closedAt: state.closedAt });
  return state;
}

function active(state: MemberState): ExistingMember {
  const member = existing(state);
  if (member.status === 'suspended') throw new DomainError(403, 'ACCOUNT_SUSPENDED', MEMBER_MESSAGES.suspended, { accountStatus: 'suspended' });
  return member;
}

/** A token older than the account's token version (password reset, suspension) is refused here, on the write side. */
function assertCurrentToken(member: ExistingMember, tokenVersion: number | undefined): void {
  if (tokenVersion !== undefined && tokenVersion !== member.tokenVersion) throw new DomainError(401, 'UNAUTHORIZED', MEMBER_MESSAGES.tokenOutdated);
}

function assertNotHeld(member: ExistingMember, now: string): void {
  const hold = holdAt(member, now);
  if (hold) throw new DomainError(403, 'WITHDRAWALS_HELD', heldUntil(hold), { hold: { until: hold.until, reason: hold.reason } });
}

/** The account the money goes to: the profile's, and only it. */
function payoutAccountFor(member: ExistingMember, named: { bankName?: string | undefined; bankAccountNumber?: string | undefined }) {
  const account = payoutAccount(member);
  if (!account) throw new DomainError(400, 'NO_PAYOUT_ACCOUNT', MEMBER_MESSAGES.noPayoutAccount, { fields: { bankAccountNumber: MEMBER_MESSAGES.noPayoutAccount } });
  const otherBank = named.bankName !== undefined && named.bankName.trim().toLowerCase() !== account.bankName.trim().toLowerCase();
  const otherNumber = named.bankAccountNumber !== undefined && named.bankAccountNumber !== account.bankAccountNumber;
  if (otherBank || otherNumber) {
    const message = otherDestination(account);
    throw new DomainError(400, 'WITHDRAWAL_DESTINATION_NOT_PROFILE', message, { fields: { [otherNumber ? 'bankAccountNumber' : 'bankName']: message } });
  }
  return account;
}

const holdUntil = (now: string) => new Date(Date.parse(now) + WITHDRAWAL_HOLD_MS).toISOString();

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

/**
 * Whether these changes replace a bank account the member already has (both fields set): that
 * takes a code texted to the member. The first account of a profile does not.
 */
export function changesPayoutAccount(member: ExistingMember, changes: ProfileChanges): boolean {
  return newPayoutAccount(member, changes) !== null;
}

/** The account these changes would replace the member's existing one with, or null when they replace none. */
export function newPayoutAccount(member: ExistingMember, changes: ProfileChanges): { bankName: string; bankAccountNumber: string } | null {
  const current = payoutAccount(member);
  if (!current) return null;
  const changed = changedProfileFields(member, changes);
  if (changed.bankName === undefined && changed.bankAccountNumber === undefined) return null;
  return { bankName: changed.bankName ?? current.bankName, bankAccountNumber: changed.bankAccountNumber ?? current.bankAccountNumber };
}

/** The profile fields whose value differs from what the member has, so the audit trail shows edits, not re-saves. */
function changedProfileFields(member: ExistingMember, changes: ProfileChanges): ProfileChanges {
  const changed: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(changes)) {
    if (value !== undefined && member.profile[field as keyof ProfileChanges] !== value) changed[field] = value;
  }
  return changed;
}

export function decideMember(command: MemberCommand, state: MemberState): MemberEvent[] {
  switch (command.type) {
    case 'RegisterMember': {
      if (state.exists || state.deleted) throw new DomainError(409, 'ALREADY_REGISTERED', MEMBER_MESSAGES.alreadyRegistered, { alreadyRegistered: true });
      const { memberId, phone, fullName, email, passwordHash, registeredBy, now } = command;
      return [{ type: 'MemberRegistered', data: { memberId, phone, fullName, email, passwordHash, registeredAt: now, registeredBy, ...(command.demo ? { demo: true as const } : {}) } }];
    }
    case 'UpdateProfile': {
      const member = active(state);
      assertCurrentToken(member, command.tokenVersion);
      const changes = changedProfileFields(member, command.changes);
      const events: MemberEvent[] = [];
      const bankChange = changesPayoutAccount(member, changes);
      if (bankChange && !command.bankChangeConfirmed) throw new DomainError(403, 'BANK_CHANGE_NEEDS_CODE', MEMBER_MESSAGES.bankChangeNeedsCode);
      if (Object.keys(changes).length > 0) events.push({ type: 'MemberProfileUpdated', data: { memberId: command.memberId, changes, updatedAt: command.now } });
      if (bankChange) {
        events.push({ type: 'WithdrawalsHeld', data: { memberId: command.memberId, reason: 'bank-account-changed', heldUntil: holdUntil(command.now), heldAt: command.now } });
      }
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
      if (!isPhoneVerified(member)) throw new DomainError(403, 'PHONE_NOT_VERIFIED', MEMBER_MESSAGES.phoneNotVerified);
      if (member.consentVersion !== command.privacyNoticeVersion) {
        throw new DomainError(403, 'CONSENT_REQUIRED', MEMBER_MESSAGES.consentRequired, { noticeVersion: command.privacyNoticeVersion });
      }
      // The one "may apply again" rule the borrower app uses too (@honeylend/contracts).
      if (!mayApplyAgain(applicationStandings(member))) throw new DomainError(409, 'LOAN_EXISTS', MEMBER_MESSAGES.loanExists, { loanId: openLoanIds(member).at(-1) });
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
      assertCurrentToken(member, command.tokenVersion);
      const { bankName, bankAccountNumber } = payoutAccountFor(member, {});
      assertNotHeld(member, command.now);
      assertCanWithdraw(member, command.amountCentavos);
      const { memberId, challengeId, amountCentavos, now } = command;
      return [{ type: 'WithdrawalOtpRequested', data: { memberId, challengeId, amountCentavos, bankName, bankAccountNumber, requestedAt: now } }];
    }
    case 'RequestWithdrawal': {
      const member = active(state);
      assertCurrentToken(member, command.tokenVersion);
      if (member.withdrawals.has(command.withdrawalId)) return [];
      if (member.usedChallengeIds.has(command.challengeId)) throw new DomainError(400, 'OTP_ALREADY_USED', MEMBER_MESSAGES.otpAlreadyUsed);
      const { bankName, bankAccountNumber } = payoutAccountFor(member, command);
      assertNotHeld(member, command.now);
      // A code names the account it was sent for; should the profile's account differ now, the code confirms nothing.
      const issuedFor = member.challengeDestinations.get(command.challengeId);
      if (issuedFor !== undefined && !sameAccount(issuedFor, { bankName, bankAccountNumber })) {
        throw new DomainError(400, 'OTP_FOR_OTHER_ACCOUNT', MEMBER_MESSAGES.otpForOtherAccount, { fields: { otp: MEMBER_MESSAGES.otpForOtherAccount } });
      }
      assertCanWithdraw(member, command.amountCentavos);
      const { memberId, withdrawalId, withdrawalNumber, amountCentavos, challengeId, now } = command;
      return [{ type: 'WithdrawalRequested', data: { memberId, withdrawalId, withdrawalNumber, amountCentavos, bankName, bankAccountNumber, challengeId, requestedAt: now } }];
    }
    case 'CompleteWithdrawal': {
      const member = existing(state);
      pendingWithdrawal(member, command.withdrawalId);
      // Four eyes on a takeover: whoever just moved the member's phone or password cannot also pay the money out.
      const since = Date.parse(command.now) - WITHDRAWAL_HOLD_MS;
      if (command.adminId !== undefined && member.adminIdentityChanges.some((change) => change.adminId === command.adminId && Date.parse(change.at) > since)) {
        throw new DomainError(403, 'IDENTITY_CHANGED_BY_YOU', MEMBER_MESSAGES.identityChangedByYou);
      }
      const { memberId, withdrawalId, payoutReference } = command;
      return [{ type: 'WithdrawalCompleted', data: { memberId, withdrawalId, processedAt: command.processedAt ?? command.now, ...(payoutReference ? { payoutReference } : {}) } }];
    }
    case 'HoldWithdrawals': {
      existing(state);
      return [{ type: 'WithdrawalsHeld', data: { memberId: command.memberId, reason: command.reason, heldUntil: holdUntil(command.now), heldAt: command.now } }];
    }
    case 'RejectWithdrawal': {
      pendingWithdrawal(existing(state), command.withdrawalId);
      return [{ type: 'WithdrawalRejected', data: { memberId: command.memberId, withdrawalId: command.withdrawalId, reason: command.reason, rejectedAt: command.now } }];
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
      if (changesPayoutAccount(member, changes)) throw new DomainError(403, 'BANK_CHANGE_BY_MEMBER_ONLY', MEMBER_MESSAGES.bankChangeByMemberOnly);
      const phoneChanges = command.phone !== undefined && command.phone !== member.phone;
      if (phoneChanges && command.actor?.role !== 'superadmin') throw new DomainError(403, 'MAIN_ADMIN_ONLY', MEMBER_MESSAGES.phoneByMainAdminOnly);
      if (Object.keys(changes).length > 0) events.push({ type: 'MemberProfileUpdated', data: { memberId, changes, updatedAt: now } });
      if (phoneChanges) {
        events.push({ type: 'MemberPhoneChanged', data: { memberId, from: member.phone, to: command.phone!, changedAt: now, ...(command.actor ? { changedBy: command.actor.id } : {}) } });
        events.push({ type: 'WithdrawalsHeld', data: { memberId, reason: 'phone-changed', heldUntil: holdUntil(now), heldAt: now } });
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
    case 'StartPasswordReset': {
      const member = existing(state);
      // A suspended member could not use the code (a password is changed on an active account only).
      if (member.status === 'suspended') throw new DomainError(409, 'MEMBER_SUSPENDED', MEMBER_MESSAGES.resetWhileSuspended);
      const { memberId, startedBy, now } = command;
      return [{ type: 'MemberPasswordResetStarted', data: { memberId, startedBy, startedAt: now } }];
    }
    case 'ChangePassword': {
      active(state);
      const { memberId, passwordHash, proof, now } = command;
      return [{ type: 'MemberPasswordChanged', data: { memberId, passwordHash, proof, changedAt: now } }];
    }
    case 'SignOutEverywhere': {
      existing(state);
      return [{ type: 'MemberSignedOutEverywhere', data: { memberId: command.memberId, signedOutAt: command.now } }];
    }
    case 'VerifyPhone': {
      const member = active(state);
      if (command.phone !== member.phone) throw new DomainError(409, 'PHONE_CHANGED', MEMBER_MESSAGES.phoneChanged);
      if (isPhoneVerified(member)) return [];
      return [{ type: 'MemberPhoneVerified', data: { memberId: command.memberId, phone: command.phone, verifiedAt: command.now } }];
    }
    case 'AdjustBalance': {
      const member = existing(state);
      // The same adjustment again (an approval's retry): recorded once.
      if (member.adjustmentIds.has(command.adjustmentId)) return [];
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
    case 'GiveConsent': {
      const member = active(state);
      if (command.noticeVersion !== command.currentVersion) {
        throw new DomainError(409, 'NOTICE_CHANGED', MEMBER_MESSAGES.noticeChanged, { noticeVersion: command.currentVersion });
      }
      if (member.consentVersion === command.noticeVersion) return [];
      return [{ type: 'ConsentGiven', data: { memberId: command.memberId, noticeVersion: command.noticeVersion, givenAt: command.now } }];
    }
    case 'RequestClosure': {
      // A suspended member may ask too: the right to stop processing is not the lender's to pause.
      const member = existing(state);
      assertCurrentToken(member, command.tokenVersion);
      const { memberId, reason, now } = command;
      const obligations = closureObligations(member);
      const requested: MemberEvent = { type: 'MemberClosureRequested', data: { memberId, reason, obligations, requestedAt: now } };
      // Refused requests are recorded too: an admin sees them, and what still stands in the way.
      if (obligations.length > 0) return [requested];
      return [requested, { type: 'MemberAccountClosed', data: { memberId, closedAt: now, loanIds: [...member.loanIds], withdrawalIds: [...member.withdrawals.keys()] } }];
    }
    case 'CloseLoanApplication': {
      if (!state.exists && state.deleted) return [];
      if (state.exists && state.closedAt !== null) return [];
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

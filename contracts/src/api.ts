import { centavosToPesos } from './money.js';
import { creditTierOf, type CreditTier } from './credit.js';
import type { AdminDoc, AllowedIpDoc, LoanDoc, LoanStats, MemberDoc, MemberStats, NotificationDoc, WithdrawalDoc, WithdrawalStats } from './readModels.js';
import type { OtpDeliveryStatus } from './jobs.js';
import { truthInLending } from './loans/repayment.js';
import { acceptanceDeadline } from './loans/loanStatusRules.js';
import { servicingAnswer, type ServicingAnswer } from './loans/servicing/servicingAnswer.js';
import type { LoanAccount } from './loans/servicing/loanAccount.js';
import type { BusinessDate } from './loans/servicing/businessDate.js';
import { redactEventData, type WithdrawalHoldReason } from './events.js';
import { PRIVACY_NOTICE_VERSION, toClosureAnswer, type ClosureAnswer } from './privacyRecords.js';

/** Every error answer of the API. */
export interface ApiErrorBody {
  message: string;
  code: string;
  details?: Record<string, unknown>;
}

/** The borrower's `user` as the API answers it: pesos, derived verification flags, no secrets. */
export interface UserAnswer {
  id: string;
  phone: string;
  fullName: string;
  email: string | null;
  address: string | null;
  countryOfWork: string | null;
  monthlySalary: number | null;
  referenceName: string | null;
  referencePhone: string | null;
  bankName: string | null;
  bankAccountNumber: string | null;
  idFrontUrl: string | null;
  idBackUrl: string | null;
  selfieUrl: string | null;
  balance: number;
  creditScore: number;
  creditTier: CreditTier;
  status: MemberDoc['status'];
  accountStatus: MemberDoc['status'];
  role: 'borrower';
  isAdmin: false;
  personalInfoComplete: boolean;
  documentsComplete: boolean;
  verified: boolean;
  /** Set while new withdrawals are held: until when, and why (design §7). */
  withdrawalHold: WithdrawalHoldAnswer | null;
  /** The phone number was proved with a texted code: needed before a first loan application. */
  phoneVerified: boolean;
  /** The member has not consented to the privacy notice in force (RA 10173): show it, with an accept button, before going on. */
  consentRequired: boolean;
  /** The notice version the member consented to, if any. */
  privacyNoticeVersion: string | null;
  createdAt: string;
  version: number;
}

export interface WithdrawalHoldAnswer {
  until: string;
  reason: WithdrawalHoldReason;
  message: string;
}

const WITHDRAWAL_HOLD_MESSAGES: Record<WithdrawalHoldReason, string> = {
  'bank-account-changed': 'Your bank account was changed. To protect your money, withdrawals are paused for 24 hours after a change.',
  'phone-changed': 'The phone number on your account was changed. To protect your money, withdrawals are paused for 24 hours after a change.',
  'too-many-wrong-codes': 'Too many wrong codes were entered today. To protect your money, withdrawals are paused for 24 hours.',
};

/** The hold on new withdrawals as the borrower reads it, or null once it has ended. */
export function withdrawalHoldAt(doc: Pick<MemberDoc, 'withdrawalHold'>, now: Date): WithdrawalHoldAnswer | null {
  const hold = doc.withdrawalHold;
  if (!hold || Date.parse(hold.until) <= now.getTime()) return null;
  return { until: hold.until, reason: hold.reason, message: WITHDRAWAL_HOLD_MESSAGES[hold.reason] };
}

/** Spec §4: personal info is complete when these five are set. */
export function isPersonalInfoComplete(doc: MemberDoc): boolean {
  return Boolean(doc.fullName && doc.address && doc.monthlySalaryCentavos !== null && doc.bankName && doc.bankAccountNumber);
}

/** Spec §4: documents are complete when all three exist. */
export function areDocumentsComplete(doc: MemberDoc): boolean {
  return Boolean(doc.documents.idFront && doc.documents.idBack && doc.documents.selfie);
}

/** `documentUrl` turns a stored file id into a URL the member's browser may load (signed, short-lived). */
/** `noticeVersion`: the privacy notice in force (the API's; this code's by default). */
export function toUserAnswer(doc: MemberDoc, documentUrl: (fileId: string) => string, now: Date = new Date(), noticeVersion: string = PRIVACY_NOTICE_VERSION): UserAnswer {
  const personalInfoComplete = isPersonalInfoComplete(doc);
  const documentsComplete = areDocumentsComplete(doc);
  const urlOf = (fileId: string | null) => (fileId ? documentUrl(fileId) : null);
  return {
    id: doc.id,
    phone: doc.phone,
    fullName: doc.fullName,
    email: doc.email,
    address: doc.address,
    countryOfWork: doc.countryOfWork,
    monthlySalary: doc.monthlySalaryCentavos === null ? null : centavosToPesos(doc.monthlySalaryCentavos),
    referenceName: doc.referenceName,
    referencePhone: doc.referencePhone,
    bankName: doc.bankName,
    bankAccountNumber: doc.bankAccountNumber,
    idFrontUrl: urlOf(doc.documents.idFront),
    idBackUrl: urlOf(doc.documents.idBack),
    selfieUrl: urlOf(doc.documents.selfie),
    balance: centavosToPesos(doc.balanceCentavos),
    creditScore: doc.creditScore,
    creditTier: creditTierOf(doc.creditScore),
    status: doc.status,
    accountStatus: doc.status,
    role: 'borrower',
    isAdmin: false,
    personalInfoComplete,
    documentsComplete,
    verified: personalInfoComplete && documentsComplete,
    withdrawalHold: withdrawalHoldAt(doc, now),
    phoneVerified: doc.phoneVerified === true,
    consentRequired: doc.consent?.noticeVersion !== noticeVersion,
    privacyNoticeVersion: doc.consent?.noticeVersion ?? null,
    createdAt: doc.createdAt,
    version: doc.version,
  };
}

export interface AdminAnswer {
  id: string;
  username: string;
  fullName: string;
  email: string | null;
  phone: string | null;
  role: AdminDoc['role'];
  isAdmin: true;
  isMainAdmin: boolean;
  createdAt: string;
}

export function toAdminAnswer(doc: AdminDoc): AdminAnswer {
  return {
    id: doc.id,
    username: doc.username,
    fullName: doc.fullName,
    email: doc.email,
    phone: doc.phone,
    role: doc.role,
    isAdmin: true,
    isMainAdmin: doc.role === 'superadmin',
    createdAt: doc.createdAt,
  };
}

export interface LoanAnswer extends ServicingAnswer {
  id: string;
  loanNumber: string;
  status: string;
  statusMessage: string | null;
  amount: number;
  termMonths: number;
  /** Flat percent per month, e.g. 2.5 */
  interestRate: number;
  monthlyPayment: number;
  purpose: string;
  createdAt: string;
  updatedAt: string;
  version: number;
  /**
   * An approved loan waits for the borrower to accept its Disclosure Statement: by when (null when
   * not waiting), and when they did (null before).
   */
  acceptance: { awaiting: boolean; acceptBy: string | null; acceptedAt: string | null };
  /** Truth in Lending Act (RA 3765) disclosure, from the schedule's real cash flows. */
  disclosure: {
    financeCharge: number;
    totalRepayable: number;
    finalPayment: number;
    nominalMonthlyRatePercent: number;
    effectiveMonthlyRatePercent: number;
    effectiveAnnualRatePercent: number;
  };
}

/** Disclosures kept at most (the oldest goes first). */
const DISCLOSURES_KEPT = 5_000;
const disclosures = new Map<string, ReturnType<typeof truthInLending>>();

/**
 * A loan's Truth-in-Lending disclosure depends only on its terms, and its effective rate is found by
 * iteration: every repayment, charge and day closed pushes the loan's answer again, so each set of
 * terms is disclosed once.
 */
function disclosureOf(terms: Parameters<typeof truthInLending>[0]): ReturnType<typeof truthInLending> {
  const key = `${terms.principalCentavos}:${terms.monthlyRateBps}:${terms.termMonths}`;
  let disclosure = disclosures.get(key);
  if (!disclosure) {
    disclosure = truthInLending(terms);
    if (disclosures.size >= DISCLOSURES_KEPT) disclosures.delete(disclosures.keys().next().value!);
    disclosures.set(key, disclosure);
  }
  return disclosure;
}

function acceptanceOf(doc: LoanDoc): LoanAnswer['acceptance'] {
  const awaiting = doc.status === 'approved' && !doc.termsAcceptedAt && !!doc.approvedAt;
  return { awaiting, acceptBy: awaiting ? acceptanceDeadline(doc.approvedAt!) : null, acceptedAt: doc.termsAcceptedAt ?? null };
}

/**
 * `today` is the business date: before disbursement the schedule shown is the one a disbursement
 * today would fix (the Disclosure Statement's), so the answer for an undisbursed loan changes with it.
 */
export function toLoanAnswer(doc: LoanDoc, today: BusinessDate): LoanAnswer {
  const terms = { principalCentavos: doc.amountCentavos, monthlyRateBps: doc.monthlyRateBps, termMonths: doc.termMonths };
  const disclosure = disclosureOf(terms);
  return {
    id: doc.id,
    loanNumber: doc.loanNumber,
    status: doc.status,
    statusMessage: doc.statusMessage,
    amount: centavosToPesos(doc.amountCentavos),
    termMonths: doc.termMonths,
    interestRate: doc.monthlyRateBps / 100,
    monthlyPayment: centavosToPesos(disclosure.monthlyPaymentCentavos),
    purpose: doc.purpose,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    version: doc.version,
    acceptance: acceptanceOf(doc),
    ...servicingAnswer(doc, today),
    disclosure: {
      financeCharge: centavosToPesos(disclosure.financeChargeCentavos),
      totalRepayable: centavosToPesos(disclosure.totalRepayableCentavos),
      finalPayment: centavosToPesos(disclosure.finalPaymentCentavos),
      nominalMonthlyRatePercent: disclosure.nominalMonthlyRatePercent,
      effectiveMonthlyRatePercent: disclosure.effectiveMonthlyRatePercent,
      effectiveAnnualRatePercent: disclosure.effectiveAnnualRatePercent,
    },
  };
}

/**
 * GET /api/loans/:id: the loan's answer with the facts its servicing fold works on and today's
 * business date, so the borrower's screen can fold a payment before it is made (the allocation the
 * Pay dialog confirms) with the very code the server runs.
 */
export interface LoanDetailAnswer extends LoanAnswer {
  account: LoanAccount | null;
  businessDate: string;
}

export function toLoanDetailAnswer(doc: LoanDoc, businessDate: BusinessDate): LoanDetailAnswer {
  return { ...toLoanAnswer(doc, businessDate), account: doc.account ?? null, businessDate };
}

/** Only the last four digits of a bank account leave the server in borrower answers. */
export function maskAccountNumber(accountNumber: string): string {
  return `••••${accountNumber.slice(-4)}`;
}

export interface WithdrawalAnswer {
  id: string;
  withdrawalNumber: string;
  amount: number;
  bankName: string;
  bankAccountNumber: string;
  status: WithdrawalDoc['status'];
  reason: string | null;
  createdAt: string;
  processedAt: string | null;
  payoutReference: string | null;
  version: number;
}

export function toWithdrawalAnswer(doc: WithdrawalDoc): WithdrawalAnswer {
  return {
    id: doc.id,
    withdrawalNumber: doc.withdrawalNumber,
    amount: centavosToPesos(doc.amountCentavos),
    bankName: doc.bankName,
    bankAccountNumber: maskAccountNumber(doc.bankAccountNumber),
    status: doc.status,
    reason: doc.reason,
    createdAt: doc.createdAt,
    processedAt: doc.processedAt,
    payoutReference: doc.payoutReference ?? null,
    version: doc.version,
  };
}

export type NotificationAnswer = Omit<NotificationDoc, 'memberId'>;

export function toNotificationAnswer(doc: NotificationDoc): NotificationAnswer {
  const { memberId: _owner, ...answer } = doc;
  return answer;
}

// ── Admin answers ─────────────────────────────────────────────────────────────────────────

/**
 * The members table's OTP column (design §7): whether the last code reached the phone and how
 * many tries the live one has left — never the code, which nobody can read.
 */
export interface AdminOtpStatus {
  state: OtpDeliveryStatus['state'];
  sentTo: string;
  lastAttemptAt: string;
  lastSentAt: string | null;
  failures: number;
  lastError: string | null;
  /** Attempts left on the live code, or null when no code is live. */
  attemptsLeft: number | null;
  expiresAt: string | null;
}

export function toAdminOtpStatus(delivery: OtpDeliveryStatus | null, live: { attemptsLeft: number; expiresAt: string } | null): AdminOtpStatus | null {
  if (!delivery) return null;
  return {
    state: delivery.state,
    sentTo: delivery.sentTo,
    lastAttemptAt: delivery.lastAttemptAt,
    lastSentAt: delivery.lastSentAt,
    failures: delivery.failures,
    lastError: delivery.lastError,
    attemptsLeft: live?.attemptsLeft ?? null,
    expiresAt: live?.expiresAt ?? null,
  };
}

/** A member as the management panel shows it: the borrower's own answer plus OTP delivery, never a password or code. */
export interface AdminMemberAnswer extends UserAnswer {
  updatedAt: string;
  otp: AdminOtpStatus | null;
  /** The member's latest request to close their account (RA 10173 sec. 16(e)) and its outcome. */
  closure: ClosureAnswer | null;
}

export function toAdminMemberAnswer(doc: MemberDoc, documentUrl: (fileId: string) => string, otp: AdminOtpStatus | null, noticeVersion?: string): AdminMemberAnswer {
  return { ...toUserAnswer(doc, documentUrl, new Date(), noticeVersion), updatedAt: doc.updatedAt, otp, closure: doc.closure ? toClosureAnswer(doc.closure) : null };
}

/** Spec §3: the member embedded in a loan row (balance and credit score are editable from the borrowing list). */
export interface AdminLoanMember {
  id: string;
  fullName: string;
  email: string | null;
  phone: string;
  balance: number;
  creditScore: number;
  creditTier: CreditTier;
  status: MemberDoc['status'];
  otp: AdminOtpStatus | null;
}

export type AdminLoanAnswer = Omit<LoanAnswer, 'schedule'> & { memberId: string; member: AdminLoanMember | null };

/** A borrowing-list row; `member` is null once the member's account was closed. */
export function toAdminLoanAnswer(doc: LoanDoc, member: MemberDoc | null, otp: AdminOtpStatus | null, today: BusinessDate): AdminLoanAnswer {
  const { schedule: _schedule, ...loan } = toLoanAnswer(doc, today);
  return {
    ...loan,
    memberId: doc.memberId,
    member: member
      ? {
          id: member.id,
          fullName: member.fullName,
          email: member.email,
          phone: member.phone,
          balance: centavosToPesos(member.balanceCentavos),
          creditScore: member.creditScore,
          creditTier: creditTierOf(member.creditScore),
          status: member.status,
          otp,
        }
      : null,
  };
}

/** A withdrawal for the admin who pays it out: the full account number and the member it belongs to. */
export interface AdminWithdrawalAnswer extends WithdrawalAnswer {
  memberId: string;
  member: { id: string; fullName: string; phone: string; email: string | null } | null;
}

export function toAdminWithdrawalAnswer(doc: WithdrawalDoc, member: MemberDoc | null): AdminWithdrawalAnswer {
  return {
    ...toWithdrawalAnswer(doc),
    bankAccountNumber: doc.bankAccountNumber,
    memberId: doc.memberId,
    member: member ? { id: member.id, fullName: member.fullName, phone: member.phone, email: member.email } : null,
  };
}

/** An admin account as the settings page lists it for `viewer`: what they may do with it, and the main admin labelled. */
export interface AdminAccountEntry extends AdminAnswer {
  label: 'Main Admin' | null;
  canEdit: boolean;
  canDelete: boolean;
}

export function toAdminAccountEntry(doc: AdminDoc, viewer: { id: string; role: AdminDoc['role'] }): AdminAccountEntry {
  const viewerIsMain = viewer.role === 'superadmin';
  const isMain = doc.role === 'superadmin';
  return { ...toAdminAnswer(doc), label: isMain ? 'Main Admin' : null, canEdit: viewerIsMain, canDelete: viewerIsMain && !isMain };
}

export interface AdminStatsAnswer {
  withdrawals: { total: number; processed: number; pending: number; rejected: number; totalAmount: number; rejectedAmount: number };
  loans: { total: number; byStatus: Record<string, number>; totalAmount: number; disbursedAmount: number };
  members: { total: number; active: number; pending: number; suspended: number; totalBalance: number };
}

export function toAdminStatsAnswer(withdrawals: WithdrawalStats, loans: LoanStats, members: MemberStats): AdminStatsAnswer {
  return {
    withdrawals: {
      total: withdrawals.total,
      processed: withdrawals.processed,
      pending: withdrawals.pending,
      rejected: withdrawals.rejected,
      totalAmount: centavosToPesos(withdrawals.totalAmountCentavos),
      rejectedAmount: centavosToPesos(withdrawals.rejectedAmountCentavos),
    },
    loans: {
      total: loans.total,
      byStatus: loans.byStatus,
      totalAmount: centavosToPesos(loans.totalAmountCentavos),
      disbursedAmount: centavosToPesos(loans.disbursedAmountCentavos),
    },
    members: {
      total: members.total,
      active: members.active,
      pending: members.pending,
      suspended: members.suspended,
      totalBalance: centavosToPesos(members.totalBalanceCentavos),
    },
  };
}

export type AllowedIpAnswer = AllowedIpDoc;

/** An event as auditors read it: credentials redacted, who and from where in the metadata. */
export interface AuditEventAnswer {
  stream: string;
  revision: number;
  position: number;
  type: string;
  data: Record<string, unknown>;
  metadata: { actorId: string | null; ip: string | null; correlationId: string | null; causationId: string | null };
  createdAt: string;
}

export function toAuditEventAnswer(event: {
  stream: string;
  revision: number;
  position: number;
  type: string;
  data: Record<string, unknown>;
  metadata: { actorId?: string; ip?: string; correlationId?: string; causationId?: string };
  createdAt: string;
}): AuditEventAnswer {
  const { actorId, ip, correlationId, causationId } = event.metadata;
  return {
    stream: event.stream,
    revision: event.revision,
    position: event.position,
    type: event.type,
    data: redactEventData(event.data),
    metadata: { actorId: actorId ?? null, ip: ip ?? null, correlationId: correlationId ?? null, causationId: causationId ?? null },
    createdAt: event.createdAt,
  };
}

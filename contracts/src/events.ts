import { z } from 'zod';
import { DELINQUENCY_BUCKETS } from './loans/servicing/delinquency.js';
import { companyDetailsSchema } from './company.js';
import { closureObligationSchema, noticeVersionSchema } from './privacy.js';
import { approvalEventSchemas } from './approvals.js';

/**
 * Every event the system appends, by type, with the zod schema of its data. Writers validate
 * before appending and readers (projections, audit) validate what they read, so a malformed
 * event can neither enter the log nor be silently misread.
 */
const isoTime = z.iso.datetime();
const uuid = z.uuid();
const e164 = z.string().regex(/^\+[1-9]\d{7,14}$/);
const argon2idHash = z.string().startsWith('$argon2id$');

export const memberRoleSchema = z.enum(['borrower']);
/** Staff roles: `auditor` reads everything (members' personal data masked) and changes nothing. */
export const adminRoleSchema = z.enum(['admin', 'superadmin', 'auditor']);
export const memberStatusSchema = z.enum(['active', 'pending', 'suspended']);
export type MemberStatus = z.infer<typeof memberStatusSchema>;
export type AdminRole = z.infer<typeof adminRoleSchema>;

/** Profile values as stored: money in centavos, text trimmed. */
export const profileChangesSchema = z
  .object({
    fullName: z.string(),
    email: z.string().nullable(),
    address: z.string(),
    countryOfWork: z.string(),
    monthlySalaryCentavos: z.number().int().nonnegative(),
    referenceName: z.string(),
    referencePhone: z.string(),
    bankName: z.string(),
    bankAccountNumber: z.string(),
  })
  .partial()
  .strict();
export type ProfileChanges = z.infer<typeof profileChangesSchema>;

const centavos = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
export const documentKindSchema = z.enum(['idFront', 'idBack', 'selfie']);
export type DocumentKind = z.infer<typeof documentKindSchema>;
export const loanStatusSchema = z.string().regex(/^[a-z][a-z0-9_]{1,39}$/);
export const notificationTypeSchema = z.enum(['loan_update', 'withdrawal_update', 'account', 'general']);
export type NotificationType = z.infer<typeof notificationTypeSchema>;
/** Admin edit range (spec §5); stored scores outside it (e.g. the default 500 is inside) never occur. */
export const creditScoreSchema = z.number().int().min(300).max(850);
/** Money moved by an admin, signed: positive credits the wallet, negative debits it. */
const signedCentavos = z
  .number()
  .int()
  .min(-Number.MAX_SAFE_INTEGER)
  .max(Number.MAX_SAFE_INTEGER)
  .refine((value) => value !== 0, 'an adjustment moves money');
/** Why an open loan application stopped counting as "the member's loan". */
export const loanClosingSchema = z.enum(['denied', 'completed', 'deleted', 'lapsed', 'cancelled']);
export type LoanClosing = z.infer<typeof loanClosingSchema>;
/** A business date: an Asia/Manila calendar date, YYYY-MM-DD. */
const businessDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const positiveCentavos = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const instalmentNumber = z.number().int().min(1).max(60);
/** How money came back: from the wallet, or an outside channel an admin or a payment provider reports. */
export const repaymentChannelSchema = z.enum(['wallet', 'gcash', 'maya', 'bank', 'cash']);
/** How each channel is named to people (receipts, refusals, the console). */
export const REPAYMENT_CHANNEL_LABELS: Record<z.infer<typeof repaymentChannelSchema>, string> = { wallet: 'wallet', gcash: 'GCash', maya: 'Maya', bank: 'bank transfer', cash: 'cash' };
export type RepaymentChannel = z.infer<typeof repaymentChannelSchema>;
/** Who reported the repayment: the borrower's own wallet, an admin, or the payment provider's signed webhook. */
export const repaymentSourceSchema = z.enum(['wallet', 'admin', 'provider']);
export const delinquencyBucketSchema = z.enum(DELINQUENCY_BUCKETS);
/** Why a reminder went out: 3 days before the due date, on it, and 1 day after. */
export const reminderReasonSchema = z.enum(['before_due', 'due_today', 'overdue']);
export type ReminderReason = z.infer<typeof reminderReasonSchema>;
export const scheduledInstalmentSchema = z.object({ number: instalmentNumber, dueDate: businessDate, principalCentavos: centavos, interestCentavos: centavos, amountCentavos: centavos }).strict();
/** Why new withdrawals are held for a while (design §7). */
export const withdrawalHoldReasonSchema = z.enum(['bank-account-changed', 'phone-changed', 'too-many-wrong-codes']);
export type WithdrawalHoldReason = z.infer<typeof withdrawalHoldReasonSchema>;
/** An allowed address: one IPv4/IPv6 address or a CIDR range, in canonical form. */
const allowedAddress = z.string().min(2).max(60);

export const eventDataSchemas = {
  /** stream phone-<e164>: the number is taken (appended with no_stream, so only one registration wins). */
  PhoneReserved: z.object({ phone: e164, memberId: uuid, reservedAt: isoTime }).strict(),
  /** The number is free again (its member was deleted or moved to another number); the reservation history stays. */
  PhoneReleased: z.object({ phone: e164, memberId: uuid, releasedAt: isoTime }).strict(),
  /** The member holding the number proved it with a code texted to it: nobody can claim it from them any more. */
  PhoneVerified: z.object({ phone: e164, memberId: uuid, verifiedAt: isoTime }).strict(),
  /** stream member-<id> */
  MemberRegistered: z
    .object({
      memberId: uuid,
      phone: e164,
      fullName: z.string().min(2),
      email: z.string().nullable(),
      passwordHash: argon2idHash,
      registeredAt: isoTime,
      registeredBy: z.enum(['self', 'admin']),
      /** A person of the demo `lending seed` writes: their number may be a stranger's, so no text is ever sent to it. */
      demo: z.literal(true).optional(),
    })
    .strict(),
  MemberProfileUpdated: z.object({ memberId: uuid, changes: profileChangesSchema, updatedAt: isoTime }).strict(),
  /** An identity document image was stored (bytes checked by magic number); not yet part of the profile. */
  DocumentUploaded: z
    .object({
      memberId: uuid,
      fileId: uuid,
      contentType: z.enum(['image/jpeg', 'image/png', 'image/webp']),
      sizeBytes: z.number().int().positive(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      uploadedBy: uuid,
      uploadedAt: isoTime,
    })
    .strict(),
  /** The member's ID front, ID back or selfie is now this uploaded file. */
  IdentityDocumentSet: z.object({ memberId: uuid, kind: documentKindSchema, fileId: uuid, setAt: isoTime }).strict(),
  /** The member has a loan application (guards "one loan at a time" on the member's own stream). */
  LoanApplicationOpened: z.object({ memberId: uuid, loanId: uuid, openedAt: isoTime }).strict(),
  /** An approved loan's principal reaches the wallet; at most once per loan. */
  LoanDisbursed: z.object({ memberId: uuid, loanId: uuid, amountCentavos: centavos, disbursedAt: isoTime }).strict(),
  /** A withdrawal OTP was asked for (the code itself is never in the log). */
  WithdrawalOtpRequested: z
    .object({
      memberId: uuid,
      challengeId: uuid,
      amountCentavos: centavos,
      /** The profile's bank account the code was issued for (absent on codes issued before withdrawals were bound to it). */
      bankName: z.string().optional(),
      bankAccountNumber: z.string().optional(),
      requestedAt: isoTime,
    })
    .strict(),
  /**
   * New withdrawals are refused until `heldUntil`: the bank account was changed, the main admin
   * changed the member's phone, or too many wrong codes were typed in one day.
   */
  WithdrawalsHeld: z.object({ memberId: uuid, reason: withdrawalHoldReasonSchema, heldUntil: isoTime, heldAt: isoTime }).strict(),
  /** The amount leaves the available balance at once (held) until the withdrawal completes or is rejected. */
  WithdrawalRequested: z
    .object({
      memberId: uuid,
      withdrawalId: uuid,
      withdrawalNumber: z.string(),
      amountCentavos: centavos,
      bankName: z.string(),
      bankAccountNumber: z.string(),
      challengeId: uuid,
      requestedAt: isoTime,
    })
    .strict(),
  /** `payoutReference`: the GCash, InstaPay or bank reference of the transfer, when the admin recorded one. */
  WithdrawalCompleted: z.object({ memberId: uuid, withdrawalId: uuid, processedAt: isoTime, payoutReference: z.string().min(1).max(64).optional() }).strict(),
  /** The held amount returns to the balance. */
  WithdrawalRejected: z.object({ memberId: uuid, withdrawalId: uuid, reason: z.string().nullable(), rejectedAt: isoTime }).strict(),
  /** A message to the member (in-app list; also sent by SMS). */
  MemberNotified: z
    .object({
      memberId: uuid,
      notificationId: uuid,
      title: z.string().min(1).max(120),
      message: z.string().min(1).max(1000),
      type: notificationTypeSchema,
      notifiedAt: isoTime,
    })
    .strict(),
  /** An admin suspended, reactivated or set the member pending; suspension ends every session at once. */
  MemberStatusChanged: z.object({ memberId: uuid, from: memberStatusSchema, to: memberStatusSchema, changedAt: isoTime }).strict(),
  MemberCreditScoreChanged: z.object({ memberId: uuid, from: z.number().int(), to: creditScoreSchema, changedAt: isoTime }).strict(),
  /** The member signs in with the new number; the old one was released on its own stream. */
  MemberPhoneChanged: z.object({ memberId: uuid, from: e164, to: e164, changedAt: isoTime, changedBy: uuid.optional() }).strict(),
  /**
   * Recorded before staff stopped choosing passwords: an admin set a new one (kept as its hash).
   * Still folded for the log's history; nothing records it any more.
   */
  MemberPasswordReset: z.object({ memberId: uuid, passwordHash: argon2idHash, resetAt: isoTime, resetBy: uuid.optional() }).strict(),
  /**
   * Staff started a password reset for a member who lost access (`startedBy`, the admin): a code is
   * texted to the member's number, with a text saying staff started it, and every session ends.
   * The password stays the member's to choose, with that code; staff never know it.
   */
  MemberPasswordResetStarted: z.object({ memberId: uuid, startedBy: uuid, startedAt: isoTime }).strict(),
  /**
   * The member set a new password themselves: knowing the current one, or with a code texted to
   * their phone (forgot password). Every older session ends.
   */
  MemberPasswordChanged: z.object({ memberId: uuid, passwordHash: argon2idHash, proof: z.enum(['current-password', 'texted-code']), changedAt: isoTime }).strict(),
  /** The member signed out of every session at once. */
  MemberSignedOutEverywhere: z.object({ memberId: uuid, signedOutAt: isoTime }).strict(),
  /** The member proved their phone number with a code texted to it (needed before a first loan application). */
  MemberPhoneVerified: z.object({ memberId: uuid, phone: e164, verifiedAt: isoTime }).strict(),
  /** An admin moved money into or out of the wallet, with the reason; the actor is in the metadata. */
  BalanceAdjusted: z.object({ memberId: uuid, adjustmentId: uuid, amountCentavos: signedCentavos, reason: z.string().min(5).max(500), adjustedAt: isoTime }).strict(),
  /** The account is closed: gone from every list, sessions ended, phone freed; its events stay for audit. */
  MemberDeleted: z.object({ memberId: uuid, phone: e164, deletedAt: isoTime }).strict(),
  /** The member consented to the privacy notice of this version (RA 10173 sec. 12): at registration, or when a changed notice asked again. */
  ConsentGiven: z.object({ memberId: uuid, noticeVersion: noticeVersionSchema, givenAt: isoTime }).strict(),
  /**
   * The member asked to close the account and stop the processing of their data (RA 10173 sec.
   * 16(e)). With obligations open (`obligations` not empty) it was refused, and says why; with none
   * it is followed by MemberAccountClosed.
   */
  MemberClosureRequested: z.object({ memberId: uuid, reason: z.string().min(3).max(500), obligations: z.array(closureObligationSchema).max(100), requestedAt: isoTime }).strict(),
  /** The account is closed at the member's request: signed out, blocked, personal data masked in every read model; the log keeps what the law requires. */
  MemberAccountClosed: z
    .object({ memberId: uuid, closedAt: isoTime, /** The member's loans and withdrawals, whose read models are masked too. */ loanIds: z.array(uuid).max(10_000), withdrawalIds: z.array(uuid).max(100_000) })
    .strict(),
  /** The member's loan no longer blocks a new application (or the account's closure). */
  LoanApplicationClosed: z.object({ memberId: uuid, loanId: uuid, closing: loanClosingSchema, closedAt: isoTime }).strict(),
  /** A wallet repayment leaves the wallet (before its RepaymentReceived on the loan stream; same repayment id). */
  WalletRepaymentDebited: z.object({ memberId: uuid, loanId: uuid, repaymentId: uuid, amountCentavos: positiveCentavos, debitedAt: isoTime }).strict(),
  /** A wallet repayment's money comes back: the loan refused it after the debit, or an admin reversed it. */
  WalletRepaymentRefunded: z.object({ memberId: uuid, loanId: uuid, repaymentId: uuid, amountCentavos: positiveCentavos, reason: z.enum(['refused', 'reversed']), refundedAt: isoTime }).strict(),
  /** stream loan-<id> */
  LoanApplied: z
    .object({
      loanId: uuid,
      memberId: uuid,
      loanNumber: z.string().regex(/^LN-\d{4}-\d{6,}$/),
      amountCentavos: centavos,
      termMonths: z.number().int().min(1).max(60),
      monthlyRateBps: z.number().int().min(0).max(10_000),
      purpose: z.string(),
      appliedAt: isoTime,
    })
    .strict(),
  LoanStatusChanged: z.object({ loanId: uuid, memberId: uuid, from: loanStatusSchema, to: loanStatusSchema, message: z.string().nullable(), changedAt: isoTime }).strict(),
  /** An admin changed a pending loan's amount or term (spec §5 admin limits). */
  LoanTermsChanged: z
    .object({
      loanId: uuid,
      memberId: uuid,
      amountCentavos: centavos,
      termMonths: z.number().int().min(1).max(60),
      previousAmountCentavos: centavos,
      previousTermMonths: z.number().int().min(1).max(60),
      changedAt: isoTime,
    })
    .strict(),
  /**
   * RA 3765: the borrower accepted the Disclosure Statement they were shown: `statementHash` is the
   * SHA-256 of its exact text (hex), with when and from where. Disbursement waits for this.
   * `businessDate`: the business date of the acceptance, from which the statement's schedule counts
   * and on which the account opens (absent on acceptances recorded before schedules counted from it).
   */
  LoanTermsAccepted: z.object({ loanId: uuid, memberId: uuid, statementHash: z.string().regex(/^[0-9a-f]{64}$/), acceptedAt: isoTime, ipAddress: z.string().max(100), businessDate: businessDate.optional() }).strict(),
  /** An approval the borrower did not accept within its acceptance period: no money moves, the application closes. */
  LoanApprovalLapsed: z.object({ loanId: uuid, memberId: uuid, approvedAt: isoTime, lapsedAt: isoTime }).strict(),
  /** The borrower withdrew their own application while it was still under review (`from`: the status it had). */
  LoanApplicationCancelled: z.object({ loanId: uuid, memberId: uuid, from: loanStatusSchema, cancelledAt: isoTime }).strict(),
  /** A pending or denied application removed by an admin; its history stays for audit. */
  LoanDeleted: z.object({ loanId: uuid, memberId: uuid, status: loanStatusSchema, deletedAt: isoTime }).strict(),
  /**
   * Disbursement opens the account: the loan is active, and its schedule (spec §9), late-charge
   * rate and grace are fixed here for its whole life (the wallet credit is LoanDisbursed on the member's stream).
   */
  LoanAccountOpened: z
    .object({
      loanId: uuid,
      memberId: uuid,
      principalCentavos: centavos,
      monthlyRateBps: z.number().int().min(0).max(10_000),
      termMonths: z.number().int().min(1).max(60),
      lateChargeMonthlyBps: z.number().int().min(0).max(10_000),
      lateChargeGraceDays: z.number().int().min(0).max(60),
      schedule: z.array(scheduledInstalmentSchema).min(1).max(60),
      businessDate,
      openedAt: isoTime,
    })
    .strict(),
  /** Money came back; how it is spread over the instalments is not stored: it is folded (contracts/src/loans/servicing). */
  RepaymentReceived: z
    .object({
      loanId: uuid,
      memberId: uuid,
      repaymentId: uuid,
      receiptNumber: z.string().min(1).max(40),
      amountCentavos: positiveCentavos,
      channel: repaymentChannelSchema,
      source: repaymentSourceSchema,
      /** The channel's own reference (for the wallet: the repayment id); accepted once per loan, compared as referenceKey folds it. */
      reference: z.string().min(1).max(100),
      /** Present when an admin recorded a reference this loan already had (on another channel, or for another amount), with why. */
      duplicateReferenceReason: z.string().min(5).max(500).optional(),
      /** The day the money counts from (may be earlier than the business date: a back-dated payment). */
      valueDate: businessDate,
      businessDate,
      receivedAt: isoTime,
    })
    .strict(),
  /**
   * A wallet repayment the loan refused after the wallet was debited (the loan changed in between);
   * recorded on the loan's stream so that one repayment id is either received or declined, never
   * both: only a declined one is refunded to the wallet.
   */
  WalletRepaymentDeclined: z.object({ loanId: uuid, memberId: uuid, repaymentId: uuid, amountCentavos: positiveCentavos, reason: z.string().min(1).max(500), declinedAt: isoTime }).strict(),
  /** A repayment no longer counts (a bounced cheque, a mistaken record); the fold runs again without it. */
  RepaymentReversed: z.object({ loanId: uuid, memberId: uuid, repaymentId: uuid, reason: z.string().min(5).max(500), businessDate, reversedAt: isoTime }).strict(),
  /** The day close opened an instalment's due date with money still owed on it. */
  InstalmentFellDue: z.object({ loanId: uuid, memberId: uuid, instalment: instalmentNumber, dueDate: businessDate, amountDueCentavos: centavos, businessDate }).strict(),
  /** A closed day's late charge on one overdue instalment (spec §9: 2 % a month, pro-rated daily, after the grace days). */
  LateChargeApplied: z
    .object({
      loanId: uuid,
      memberId: uuid,
      instalment: instalmentNumber,
      chargedFor: businessDate,
      amountCentavos: positiveCentavos,
      overdueCentavos: centavos,
      businessDate,
    })
    .strict(),
  DelinquencyBucketChanged: z.object({ loanId: uuid, memberId: uuid, from: delinquencyBucketSchema, to: delinquencyBucketSchema, daysPastDue: z.number().int().nonnegative(), businessDate }).strict(),
  /** An overdue loan aged a day with nothing else to record (keeps its days past due current). */
  LoanDayClosed: z.object({ loanId: uuid, memberId: uuid, daysPastDue: z.number().int().nonnegative(), businessDate }).strict(),
  PenaltyWaived: z.object({ loanId: uuid, memberId: uuid, waiverId: uuid, amountCentavos: positiveCentavos, reason: z.string().min(5).max(500), businessDate, waivedAt: isoTime }).strict(),
  /** The repayment that paid the payoff amount closed the loan; interest of instalments not yet due is not owed. */
  LoanPaidOff: z.object({ loanId: uuid, memberId: uuid, repaymentId: uuid, valueDate: businessDate, interestForgivenCentavos: centavos, businessDate, paidOffAt: isoTime }).strict(),
  /** A reminder went to the borrower (SMS and notification); never twice for one instalment and reason. */
  RepaymentReminderSent: z
    .object({
      loanId: uuid,
      memberId: uuid,
      instalment: instalmentNumber,
      reason: reminderReasonSchema,
      dueDate: businessDate,
      amountCentavos: centavos,
      notificationId: uuid,
      /** The fixed template's text as sent (also the borrower's in-app notification). */
      title: z.string().min(1).max(120),
      message: z.string().min(1).max(1000),
      sentAt: isoTime,
    })
    .strict(),
  /**
   * stream notifications-<member id>: the member read these notifications (one, or every unread one
   * at once). Read state lives on its own stream: reading never races the wallet's writes.
   */
  NotificationsRead: z.object({ memberId: uuid, notificationIds: z.array(uuid).min(1).max(1000), readAt: isoTime }).strict(),
  /** stream sequence-<name>: human-readable numbers (LN-2026-000123) handed out without collisions. */
  SequenceNumberAllocated: z.object({ sequence: z.string(), number: z.number().int().positive(), allocatedFor: uuid }).strict(),
  /** stream admin-username-<username>: the login name is taken. */
  AdminUsernameReserved: z.object({ username: z.string().min(1), adminId: uuid, reservedAt: isoTime }).strict(),
  /** The login name is free again (its admin was deleted or changed email or phone). */
  AdminUsernameReleased: z.object({ username: z.string().min(1), adminId: uuid, releasedAt: isoTime }).strict(),
  /**
   * stream main-admin: which account is the main admin, written once, before that account is made
   * (from ADMIN_USERNAME at the first start): no later start makes another, whatever it is told.
   */
  MainAdminDesignated: z.object({ adminId: uuid, username: z.string().min(1), designatedAt: isoTime }).strict(),
  /** stream admin-<id> */
  AdminAccountCreated: z
    .object({
      adminId: uuid,
      username: z.string().min(1),
      fullName: z.string(),
      email: z.string().nullable(),
      phone: z.string().nullable(),
      role: adminRoleSchema,
      passwordHash: argon2idHash,
      createdAt: isoTime,
      createdBy: z.union([uuid, z.literal('bootstrap')]),
    })
    .strict(),
  AdminAccountUpdated: z
    .object({
      adminId: uuid,
      changes: z
        .object({ username: z.string().min(1), fullName: z.string(), email: z.string().nullable(), phone: z.string().nullable() })
        .partial()
        .strict(),
      updatedAt: isoTime,
    })
    .strict(),
  /** Every older session of this admin ends. */
  AdminPasswordChanged: z.object({ adminId: uuid, passwordHash: argon2idHash, changedAt: isoTime }).strict(),
  AdminAccountDeleted: z.object({ adminId: uuid, deletedAt: isoTime }).strict(),
  /** stream settings-admin-ips: who may reach the management panel (empty list = anyone). */
  AllowedIpAdded: z.object({ ruleId: uuid, ipAddress: allowedAddress, description: z.string().max(200), addedAt: isoTime }).strict(),
  AllowedIpRemoved: z.object({ ruleId: uuid, ipAddress: allowedAddress, removedAt: isoTime }).strict(),
  /** stream settings-company: the lender's legal identity as the main admin (or the first start, from the environment) set it. */
  CompanyDetailsSet: z.object({ details: companyDetailsSchema, setAt: isoTime }).strict(),
  /** stream settings-loan-statuses: statuses admins defined beyond the built-in ones (spec §4). */
  LoanStatusDefined: z.object({ status: loanStatusSchema, definedAt: isoTime }).strict(),
  LoanStatusRemoved: z.object({ status: loanStatusSchema, removedAt: isoTime }).strict(),
  /**
   * stream audit-access-<staff id> (design §10): what an auditor (or the main admin) unmasked or
   * exported is itself on the log. Unmasking shows one member's personal data to that auditor for
   * UNMASK_MINUTES from `unmaskedAt`.
   */
  AuditorUnmasked: z.object({ auditorId: uuid, memberId: uuid, reason: z.string().min(5).max(500), unmaskedAt: isoTime }).strict(),
  AuditExportMade: z
    .object({
      exportId: uuid,
      madeBy: uuid,
      /** The positions the export covers (inclusive; `to` is the head when it was made when none was asked). */
      range: z.object({ from: z.number().int().nonnegative(), to: z.number().int().nonnegative() }).strict(),
      /** The filters as asked (stream, type, actor, since, until); absent ones left out. */
      filters: z.record(z.string(), z.string()),
      format: z.enum(['ndjson', 'csv']),
      masked: z.boolean(),
      madeAt: isoTime,
    })
    .strict(),
  /**
   * stream audit-checkpoints (design §10): the log's hash chain passed through `hash` at
   * `position`, signed with Ed25519 (base64url) by the key whose raw public key is `publicKey`.
   */
  AuditCheckpointSigned: z
    .object({
      position: z.number().int().nonnegative(),
      hash: z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 hash in lowercase hex'),
      time: isoTime,
      signature: z.string().regex(/^[A-Za-z0-9_-]{86}$/, 'an Ed25519 signature in base64url'),
      publicKey: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'an Ed25519 public key in base64url'),
    })
    .strict(),
  /** stream approval-<id> and settings-approvals: four eyes on money (design §11), see approvals.ts. */
  ...approvalEventSchemas,
} as const;

export type EventType = keyof typeof eventDataSchemas;
export type EventData<T extends EventType> = z.infer<(typeof eventDataSchemas)[T]>;
export type DomainEvent = { [K in EventType]: { type: K; data: EventData<K> } }[EventType];
/** The events of the given types, as a discriminated union (e.g. one aggregate's events). */
export type EventOf<K extends EventType> = { [T in K]: { type: T; data: EventData<T> } }[K];

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(eventDataSchemas, type);
}

export class InvalidEventError extends Error {
  override readonly name = 'InvalidEventError';
}

/** Validates a stored or about-to-be-stored event; throws InvalidEventError on anything unknown or malformed. */
export function parseDomainEvent(type: string, data: unknown): DomainEvent {
  if (!isEventType(type)) throw new InvalidEventError(`unknown event type ${type}`);
  const parsed = eventDataSchemas[type].safeParse(data);
  if (!parsed.success) throw new InvalidEventError(`invalid ${type}: ${parsed.error.message}`);
  return { type, data: parsed.data } as DomainEvent;
}

/** Fields never shown outside the write side (audit answers, logs): credentials. */
export const SECRET_EVENT_FIELDS = ['passwordHash'] as const;

export function redactEventData(data: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...data };
  for (const field of SECRET_EVENT_FIELDS) if (field in copy) copy[field] = '[redacted]';
  return copy;
}

export const streams = {
  member: (memberId: string) => `member-${memberId}`,
  phone: (e164Phone: string) => `phone-${e164Phone}`,
  admin: (adminId: string) => `admin-${adminId}`,
  adminUsername: (username: string) => `admin-username-${username.trim().toLowerCase()}`,
  /** The one main admin (role superadmin), designated at the first start. */
  mainAdmin: 'main-admin',
  loan: (loanId: string) => `loan-${loanId}`,
  /** What the member has read of their notifications. */
  notifications: (memberId: string) => `notifications-${memberId}`,
  sequence: (name: string) => `sequence-${name}`,
  allowedIps: 'settings-admin-ips',
  loanStatuses: 'settings-loan-statuses',
  company: 'settings-company',
  /** A command waiting for a second admin (four eyes, design §11). */
  approval: (approvalId: string) => `approval-${approvalId}`,
  /** Which commands need a second admin, and the thresholds. */
  approvalSettings: 'settings-approvals',
  /** Signed checkpoints of the log's hash chain. */
  auditCheckpoints: 'audit-checkpoints',
  /** What one auditor (or the main admin) unmasked and exported. */
  auditAccess: (staffId: string) => `audit-access-${staffId}`,
};

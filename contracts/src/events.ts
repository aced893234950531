import { z } from 'zod';

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
export const adminRoleSchema = z.enum(['admin', 'superadmin']);
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
const signedCentavos = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER).refine((value) => value !== 0, 'an adjustment moves money');
/** Why an open loan application stopped counting as "the member's loan". */
export const loanClosingSchema = z.enum(['denied', 'completed', 'deleted']);
/** An allowed address: one IPv4/IPv6 address or a CIDR range, in canonical form. */
const allowedAddress = z.string().min(2).max(60);

export const eventDataSchemas = {
  /** stream phone-<e164>: the number is taken (appended with no_stream, so only one registration wins). */
  PhoneReserved: z.object({ phone: e164, memberId: uuid, reservedAt: isoTime }).strict(),
  /** The number is free again (its member was deleted or moved to another number); the reservation history stays. */
  PhoneReleased: z.object({ phone: e164, memberId: uuid, releasedAt: isoTime }).strict(),
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
  WithdrawalOtpRequested: z.object({ memberId: uuid, challengeId: uuid, amountCentavos: centavos, requestedAt: isoTime }).strict(),
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
  WithdrawalCompleted: z.object({ memberId: uuid, withdrawalId: uuid, processedAt: isoTime }).strict(),
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
  MemberPhoneChanged: z.object({ memberId: uuid, from: e164, to: e164, changedAt: isoTime }).strict(),
  /** An admin set a new password (typed once, never readable again); every older session ends. */
  MemberPasswordReset: z.object({ memberId: uuid, passwordHash: argon2idHash, resetAt: isoTime }).strict(),
  /** An admin moved money into or out of the wallet, with the reason; the actor is in the metadata. */
  BalanceAdjusted: z
    .object({ memberId: uuid, adjustmentId: uuid, amountCentavos: signedCentavos, reason: z.string().min(5).max(500), adjustedAt: isoTime })
    .strict(),
  /** The account is closed: gone from every list, sessions ended, phone freed; its events stay for audit. */
  MemberDeleted: z.object({ memberId: uuid, phone: e164, deletedAt: isoTime }).strict(),
  /** The member's loan no longer blocks a new application (or the account's closure). */
  LoanApplicationClosed: z.object({ memberId: uuid, loanId: uuid, closing: loanClosingSchema, closedAt: isoTime }).strict(),
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
  LoanStatusChanged: z
    .object({ loanId: uuid, memberId: uuid, from: loanStatusSchema, to: loanStatusSchema, message: z.string().nullable(), changedAt: isoTime })
    .strict(),
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
  /** A pending or denied application removed by an admin; its history stays for audit. */
  LoanDeleted: z.object({ loanId: uuid, memberId: uuid, status: loanStatusSchema, deletedAt: isoTime }).strict(),
  /** stream sequence-<name>: human-readable numbers (LN-2026-000123) handed out without collisions. */
  SequenceNumberAllocated: z.object({ sequence: z.string(), number: z.number().int().positive(), allocatedFor: uuid }).strict(),
  /** stream admin-username-<username>: the login name is taken. */
  AdminUsernameReserved: z.object({ username: z.string().min(1), adminId: uuid, reservedAt: isoTime }).strict(),
  /** The login name is free again (its admin was deleted or changed email or phone). */
  AdminUsernameReleased: z.object({ username: z.string().min(1), adminId: uuid, releasedAt: isoTime }).strict(),
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
  /** stream settings-loan-statuses: statuses admins defined beyond the built-in ones (spec §4). */
  LoanStatusDefined: z.object({ status: loanStatusSchema, definedAt: isoTime }).strict(),
  LoanStatusRemoved: z.object({ status: loanStatusSchema, removedAt: isoTime }).strict(),
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
  loan: (loanId: string) => `loan-${loanId}`,
  sequence: (name: string) => `sequence-${name}`,
  allowedIps: 'settings-admin-ips',
  loanStatuses: 'settings-loan-statuses',
};

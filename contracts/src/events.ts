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

export const eventDataSchemas = {
  /** stream phone-<e164>: the number is taken (appended with no_stream, so only one registration wins). */
  PhoneReserved: z.object({ phone: e164, memberId: uuid, reservedAt: isoTime }).strict(),
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
  /** stream admin-username-<username>: the login name is taken. */
  AdminUsernameReserved: z.object({ username: z.string().min(1), adminId: uuid, reservedAt: isoTime }).strict(),
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
} as const;

export type EventType = keyof typeof eventDataSchemas;
export type EventData<T extends EventType> = z.infer<(typeof eventDataSchemas)[T]>;
export type DomainEvent = { [K in EventType]: { type: K; data: EventData<K> } }[EventType];

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
};

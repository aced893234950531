import type { AuditEventAnswer } from '../api.js';
import type { LoanDoc, MemberDoc, WithdrawalDoc } from '../readModels.js';

/**
 * What an auditor sees of a member until they unmask them (issue 16): a name's initial, the last
 * four digits of a phone or account number, and nothing of an address, an email's mailbox, the
 * identity documents or free text written to or by the member. Money, statuses, dates and ids
 * stay: they are what an audit is about. Unmasking one member takes a reason and is an event
 * (AuditorUnmasked), and lasts UNMASK_MINUTES.
 */

export const UNMASK_MINUTES = 30;

const DOTS = '••••';

export function maskName(name: string): string {
  const initial = [...name.trim()][0];
  return initial ? `${initial.toUpperCase()}.` : '';
}

/** The last four characters, as account numbers are shown to borrowers. */
export function maskLastFour(value: string): string {
  return `${DOTS}${value.slice(-4)}`;
}

export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at > 0 ? `${[...email][0]}${DOTS}${email.slice(at)}` : DOTS;
}

/** Free text (an address, a message, a purpose): only that there was some. */
export function maskText(text: string): string {
  return text.length === 0 ? text : DOTS;
}

const nullable =
  <T extends string>(mask: (value: T) => string) =>
  (value: T | null): string | null =>
    value === null ? null : mask(value);

export function maskMemberDoc(doc: MemberDoc): MemberDoc {
  return {
    ...doc,
    fullName: maskName(doc.fullName),
    email: nullable(maskEmail)(doc.email),
    phone: maskLastFour(doc.phone),
    address: nullable(maskText)(doc.address),
    referenceName: nullable(maskName)(doc.referenceName),
    referencePhone: nullable(maskLastFour)(doc.referencePhone),
    bankAccountNumber: nullable(maskLastFour)(doc.bankAccountNumber),
    documents: { idFront: null, idBack: null, selfie: null },
  };
}

export function maskWithdrawalDoc(doc: WithdrawalDoc): WithdrawalDoc {
  return { ...doc, bankAccountNumber: maskLastFour(doc.bankAccountNumber), reason: nullable(maskText)(doc.reason) };
}

export function maskLoanDoc(doc: LoanDoc): LoanDoc {
  return { ...doc, purpose: maskText(doc.purpose), statusMessage: nullable(maskText)(doc.statusMessage) };
}

/** How each personal field of event data is masked, by name, wherever it sits. */
const FIELD_MASKS: Record<string, (value: string) => string> = {
  fullName: maskName,
  referenceName: maskName,
  phone: maskLastFour,
  // The member's last proved number, in the folded member state an auditor reads.
  verifiedPhone: maskLastFour,
  // A member's number before a phone change waiting for a second admin (ApprovalRequested).
  fromPhone: maskLastFour,
  referencePhone: maskLastFour,
  bankAccountNumber: maskLastFour,
  email: maskEmail,
  address: maskText,
  // The borrower's own address when they accepted a Disclosure Statement (LoanTermsAccepted), as a member's own action's address is.
  ipAddress: maskIp,
};

/** Free text about a member, by event type. */
const TEXT_FIELDS: Record<string, readonly string[]> = {
  MemberNotified: ['title', 'message'],
  LoanApplied: ['purpose'],
  LoanStatusChanged: ['message'],
  WithdrawalRejected: ['reason'],
  AuditorUnmasked: ['reason'],
  // The old and the new phone number.
  MemberPhoneChanged: ['from', 'to'],
};

function maskFields(value: unknown, textFields: readonly string[], phoneFields: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => maskFields(item, textFields, phoneFields));
  if (value === null || typeof value !== 'object') return value;
  const masked: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (typeof field === 'string' && FIELD_MASKS[key]) masked[key] = FIELD_MASKS[key](field);
    else if (typeof field === 'string' && textFields.includes(key)) masked[key] = phoneFields ? maskLastFour(field) : maskText(field);
    else masked[key] = maskFields(field, textFields, phoneFields);
  }
  return masked;
}

/** Every personal field, by name, at any depth (a folded state, a document of unknown shape). */
export function maskPersonalFields(value: unknown): unknown {
  return maskFields(value, [], false);
}

export function maskEventData(type: string, data: Record<string, unknown>): Record<string, unknown> {
  return maskFields(data, TEXT_FIELDS[type] ?? [], type === 'MemberPhoneChanged') as Record<string, unknown>;
}

/** phone-<e164> streams name a phone number. */
export function maskStreamName(stream: string): string {
  return stream.startsWith('phone-') ? `phone-${maskLastFour(stream.slice('phone-'.length))}` : stream;
}

/** The member an event is about: the one its data names, or whose stream it is on. */
export function memberOfEvent(event: { stream: string; data: Record<string, unknown> }): string | null {
  if (typeof event.data.memberId === 'string') return event.data.memberId;
  // A command waiting for a second admin names its member inside (ApprovalRequested).
  const command = event.data.command as { memberId?: unknown } | undefined;
  if (typeof command?.memberId === 'string') return command.memberId;
  return event.stream.startsWith('member-') ? event.stream.slice('member-'.length) : null;
}

/** Keeps the network of an address (the first three parts of IPv4, four groups of IPv6). */
export function maskIp(ip: string): string {
  if (ip.includes(':')) return `${ip.split(':').slice(0, 4).join(':')}:${DOTS}`;
  return `${ip.split('.').slice(0, 3).join('.')}.${DOTS}`;
}

/**
 * An audit event as an auditor sees it: personal data masked, and the address of a member's own
 * action (staff addresses stay: who acted from where is what an audit checks).
 */
export function maskAuditEvent<T extends AuditEventAnswer>(event: T): T {
  const member = memberOfEvent(event);
  const { actorId, ip } = event.metadata;
  const byMember = actorId !== null && (actorId === member || actorId === 'self');
  return {
    ...event,
    stream: maskStreamName(event.stream),
    data: maskEventData(event.type, event.data),
    metadata: { ...event.metadata, ip: byMember && ip ? maskIp(ip) : ip },
  };
}

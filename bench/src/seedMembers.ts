import { createHash, randomUUID } from 'node:crypto';
import { PRIVACY_NOTICE_VERSION, parseDomainEvent, streams, type DomainEvent } from '@honeylend/contracts';
import type { EventStore, NewEvent } from '@honeylend/eventstore';

/**
 * The argon2id hash (m=19456, t=2, p=1, as the API makes them) of BENCH_PASSWORD, made once with
 * @node-rs/argon2 and reused for every seeded member: hashing 1,000 passwords would cost a minute.
 */
export const BENCH_PASSWORD = 'Bench-Password-2026';
export const BENCH_PASSWORD_HASH = '$argon2id$v=19$m=19456,t=2,p=1$zED2D/G6NxJGqVVdfDCDbA$wyL1656FB0q5hih5R2tTNhmnA/dwvRhI5nx6gCxhBa8';

export interface SeededMember {
  id: string;
  /** E.164 */
  phone: string;
  /** The local form a borrower types (09…). */
  localPhone: string;
}

/** Pesos in the wallet of every seeded member, so OTP requests for a withdrawal are allowed. */
export const SEEDED_BALANCE_CENTAVOS = 8_000_000;

/** Validates against the event catalogue, as the write side does before it appends. */
export function toNewEvents(events: DomainEvent[], metadata: NewEvent['metadata']): NewEvent[] {
  return events.map((event) => {
    parseDomainEvent(event.type, event.data);
    return { id: randomUUID(), type: event.type, data: event.data, metadata };
  });
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * A verified borrower as the API would leave one after registration, a complete profile, three
 * uploaded identity documents and a confirmed phone number, plus a disbursed loan's pesos in the wallet: the member's stream in
 * one append, and the phone reservation on its own stream.
 */
export function verifiedMemberEvents(member: SeededMember, at: Date): { phone: DomainEvent[]; member: DomainEvent[] } {
  const now = at.toISOString();
  const memberId = member.id;
  const files = (['idFront', 'idBack', 'selfie'] as const).map((kind) => ({ kind, fileId: randomUUID() }));
  return {
    // The number confirmed with a texted code, as a first loan application needs.
    phone: [
      { type: 'PhoneReserved', data: { phone: member.phone, memberId, reservedAt: now } },
      { type: 'PhoneVerified', data: { phone: member.phone, memberId, verifiedAt: now } },
    ],
    member: [
      {
        type: 'MemberRegistered',
        data: { memberId, phone: member.phone, fullName: 'Bench Borrower', email: null, passwordHash: BENCH_PASSWORD_HASH, registeredAt: now, registeredBy: 'self' },
      },
      {
        type: 'MemberProfileUpdated',
        data: {
          memberId,
          changes: {
            address: '123 Rizal Avenue, Manila',
            countryOfWork: 'Philippines',
            monthlySalaryCentavos: 3_000_000,
            referenceName: 'Jose Santos',
            referencePhone: '09181234567',
            bankName: 'BPI',
            bankAccountNumber: '1234567890',
          },
          updatedAt: now,
        },
      },
      ...files.map(({ fileId, kind }): DomainEvent => ({
        type: 'DocumentUploaded',
        data: { memberId, fileId, contentType: 'image/png', sizeBytes: 2_048, sha256: sha256(`${memberId}:${kind}`), uploadedBy: memberId, uploadedAt: now },
      })),
      ...files.map(({ fileId, kind }): DomainEvent => ({ type: 'IdentityDocumentSet', data: { memberId, kind, fileId, setAt: now } })),
      { type: 'MemberPhoneVerified', data: { memberId, phone: member.phone, verifiedAt: now } },
      // Consent to the privacy notice in force: a loan application needs it (RA 10173 sec. 12).
      { type: 'ConsentGiven', data: { memberId, noticeVersion: PRIVACY_NOTICE_VERSION, givenAt: now } },
      { type: 'LoanDisbursed', data: { memberId, loanId: randomUUID(), amountCentavos: SEEDED_BALANCE_CENTAVOS, disbursedAt: now } },
    ],
  };
}

export function benchPhone(index: number): SeededMember['phone'] {
  return `+639${String(100_000_000 + index).padStart(9, '0')}`;
}

/** Runs `work` over `items` with at most `concurrency` at a time. */
export async function pool<T>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/** Seeds `count` verified members through the store port; answers them in order. */
export async function seedVerifiedMembers(store: EventStore, count: number, concurrency: number): Promise<SeededMember[]> {
  const members: SeededMember[] = Array.from({ length: count }, (_, i) => {
    const phone = benchPhone(i);
    return { id: randomUUID(), phone, localPhone: `0${phone.slice(3)}` };
  });
  const at = new Date();
  await pool(members, concurrency, async (member) => {
    const events = verifiedMemberEvents(member, at);
    const metadata = { actorId: member.id, correlationId: randomUUID(), ip: '127.0.0.1' };
    await store.append(streams.phone(member.phone), toNewEvents(events.phone, metadata), { expectedRevision: 'no_stream' });
    await store.append(streams.member(member.id), toNewEvents(events.member, metadata), { expectedRevision: 'no_stream' });
  });
  return members;
}

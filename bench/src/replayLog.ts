import { createHash, randomUUID } from 'node:crypto';
import type { DomainEvent } from '@honeylend/contracts';
import type { EventStore } from '@honeylend/eventstore';
import { benchPhone, BENCH_PASSWORD_HASH, toNewEvents } from './seedMembers.js';

/** A small deterministic PRNG (mulberry32), so every run interleaves the same way. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * One borrower's life, in the order the API would append it: registration, profile, documents,
 * a loan applied for, approved, its Disclosure Statement accepted and disbursed, a notification, a profile edit, and a withdrawal
 * confirmed by OTP and completed. 22 events over 8 streams, touching every projection.
 */
export function lifeOf(index: number, loanNumber: number, withdrawalNumber: number, at: Date): DomainEvent[] {
  const memberId = randomUUID();
  const loanId = randomUUID();
  const withdrawalId = randomUUID();
  const challengeId = randomUUID();
  const phone = benchPhone(index);
  const now = at.toISOString();
  const files = (['idFront', 'idBack', 'selfie'] as const).map((kind) => ({ kind, fileId: randomUUID() }));
  const year = at.getUTCFullYear();
  return [
    { type: 'PhoneReserved', data: { phone, memberId, reservedAt: now } },
    {
      type: 'MemberRegistered',
      data: { memberId, phone, fullName: `Replay Borrower ${index}`, email: `borrower${index}@example.ph`, passwordHash: BENCH_PASSWORD_HASH, registeredAt: now, registeredBy: 'self' },
    },
    {
      type: 'MemberProfileUpdated',
      data: {
        memberId,
        changes: {
          address: `${index} Rizal Avenue, Manila`,
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
    ...files.map(({ fileId }): DomainEvent => ({
      type: 'DocumentUploaded',
      data: { memberId, fileId, contentType: 'image/jpeg', sizeBytes: 180_000, sha256: sha256(fileId), uploadedBy: memberId, uploadedAt: now },
    })),
    ...files.map(({ fileId, kind }): DomainEvent => ({ type: 'IdentityDocumentSet', data: { memberId, kind, fileId, setAt: now } })),
    { type: 'LoanApplicationOpened', data: { memberId, loanId, openedAt: now } },
    { type: 'SequenceNumberAllocated', data: { sequence: `loan-numbers-${year}`, number: loanNumber, allocatedFor: loanId } },
    {
      type: 'LoanApplied',
      data: {
        loanId,
        memberId,
        loanNumber: `LN-${year}-${String(loanNumber).padStart(6, '0')}`,
        amountCentavos: 10_000_000,
        termMonths: 12,
        monthlyRateBps: 250,
        purpose: 'Small business inventory',
        appliedAt: now,
      },
    },
    { type: 'LoanStatusChanged', data: { loanId, memberId, from: 'pending', to: 'approved', message: null, changedAt: now } },
    { type: 'LoanTermsAccepted', data: { loanId, memberId, statementHash: 'c'.repeat(64), acceptedAt: now, ipAddress: '127.0.0.1' } },
    { type: 'LoanDisbursed', data: { memberId, loanId, amountCentavos: 10_000_000, disbursedAt: now } },
    {
      type: 'MemberNotified',
      data: { memberId, notificationId: randomUUID(), title: 'Loan approved', message: 'Your loan was approved and disbursed to your wallet.', type: 'loan_update', notifiedAt: now },
    },
    { type: 'MemberProfileUpdated', data: { memberId, changes: { address: `${index} Mabini Street, Quezon City` }, updatedAt: now } },
    { type: 'WithdrawalOtpRequested', data: { memberId, challengeId, amountCentavos: 500_000, requestedAt: now } },
    { type: 'SequenceNumberAllocated', data: { sequence: `withdrawal-numbers-${year}`, number: withdrawalNumber, allocatedFor: withdrawalId } },
    {
      type: 'WithdrawalRequested',
      data: {
        memberId,
        withdrawalId,
        withdrawalNumber: `WD-${year}-${String(withdrawalNumber).padStart(6, '0')}`,
        amountCentavos: 500_000,
        bankName: 'BPI',
        bankAccountNumber: '1234567890',
        challengeId,
        requestedAt: now,
      },
    },
    { type: 'WithdrawalCompleted', data: { memberId, withdrawalId, processedAt: now } },
    {
      type: 'MemberNotified',
      data: { memberId, notificationId: randomUUID(), title: 'Withdrawal completed', message: 'Your withdrawal was sent to your bank.', type: 'withdrawal_update', notifiedAt: now },
    },
  ];
}

/**
 * Generates a log of `count` events in which `activeMembers` borrowers live at the same time, their
 * events interleaved at random as concurrent commands would interleave them, and appends it through
 * the store port in chunks of `chunkSize`.
 *
 * Each chunk is one append to a stream of its own (`replay-seed-<run>-<n>`): the adapter serializes
 * appends (about 150–200 a second here), so appending 1M events one command at a time would take
 * over an hour. `lending replay` reads only the global log (type, data, position), which is the same
 * as if every event had been appended to its own member, loan or sequence stream.
 */
export async function seedReplayLog(
  store: EventStore,
  { count, activeMembers, runId, firstMember = 0, chunkSize = 2_000, seed = 2026 }: { count: number; activeMembers: number; runId: string; firstMember?: number; chunkSize?: number; seed?: number },
): Promise<{ events: number; members: number; seconds: number }> {
  const started = Date.now();
  const next = random(seed + firstMember);
  const at = new Date();
  let members = 0;
  let loanNumber = firstMember;
  let withdrawalNumber = firstMember;
  const active: DomainEvent[][] = [];
  const startLife = () => {
    members++;
    return lifeOf(firstMember + members, ++loanNumber, ++withdrawalNumber, at);
  };
  for (let i = 0; i < activeMembers; i++) active.push(startLife());
  let written = 0;
  let chunkIndex = 0;
  const metadata = { actorId: 'bench', correlationId: randomUUID(), ip: '127.0.0.1' };
  while (written < count) {
    const chunk: DomainEvent[] = [];
    while (chunk.length < chunkSize && written + chunk.length < count) {
      const slot = Math.floor(next() * active.length);
      const life = active[slot];
      chunk.push(life.shift()!);
      if (life.length === 0) active[slot] = startLife();
    }
    await store.append(`replay-seed-${runId}-${firstMember}-${chunkIndex++}`, toNewEvents(chunk, metadata), { expectedRevision: 'no_stream' });
    written += chunk.length;
  }
  return { events: written, members, seconds: (Date.now() - started) / 1000 };
}

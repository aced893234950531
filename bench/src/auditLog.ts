import { randomUUID } from 'node:crypto';
import { streams, type DomainEvent } from '@honeylend/contracts';
import type { EventStore } from '@honeylend/eventstore';
import { lifeOf } from './replayLog.js';
import { toNewEvents } from './seedMembers.js';

/** The stream the API appends an event to: the phone's, the number sequence's, the loan's, or the member's. */
function streamOf(event: DomainEvent): string {
  switch (event.type) {
    case 'PhoneReserved':
      return streams.phone(event.data.phone);
    case 'SequenceNumberAllocated':
      return streams.sequence(event.data.sequence);
    case 'LoanApplied':
    case 'LoanStatusChanged':
    case 'LoanTermsAccepted':
      return streams.loan(event.data.loanId);
    default:
      return streams.member((event.data as { memberId: string }).memberId);
  }
}

/**
 * A log of `count` events as the system writes it (issue 16's book folds aggregates, so unlike the
 * replay log each event sits in its own member, loan, phone or sequence stream): borrowers' lives
 * (replayLog.ts), `concurrency` at once, each life's consecutive events of one stream in one append.
 */
export async function seedAggregateLog(store: EventStore, { count, concurrency = 64 }: { count: number; concurrency?: number }): Promise<{ events: number; members: number; seconds: number }> {
  const started = Date.now();
  const at = new Date();
  const metadata = { actorId: 'bench', correlationId: randomUUID(), ip: '127.0.0.1' };
  let written = 0;
  let members = 0;
  const live = async () => {
    while (written < count) {
      members++;
      const life = lifeOf(members, members, members, at).slice(0, count - written);
      written += life.length;
      for (let start = 0; start < life.length;) {
        const stream = streamOf(life[start]);
        let end = start + 1;
        while (end < life.length && streamOf(life[end]) === stream) end++;
        await store.append(stream, toNewEvents(life.slice(start, end), metadata), { expectedRevision: 'any' });
        start = end;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, live));
  return { events: written, members, seconds: (Date.now() - started) / 1000 };
}

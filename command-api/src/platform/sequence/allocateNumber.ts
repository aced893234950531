import { randomUUID } from 'node:crypto';
import { parseDomainEvent, streams } from '@honeylend/contracts';
import { WrongExpectedVersion, type EventMetadata, type EventStore, type StreamEvents } from '@honeylend/eventstore';
import { formatSequenceNumber, type SequenceEvent } from './sequence.js';

/** What this process knows of one sequence stream: valid as long as an append at `revision` succeeds. */
interface KnownSequence {
  /** Revision of the stream's last event, or 'no_stream'. */
  revision: number | 'no_stream';
  last: number;
  byOwner: Map<string, number>;
}

interface Waiter {
  ownerId: string;
  metadata: EventMetadata;
  resolve: (number: number) => void;
  reject: (error: unknown) => void;
}

/** Losing this many races in a row to other API nodes ends the waiting requests with the conflict (a 409). */
const MAX_ATTEMPTS = 50;

/**
 * One sequence stream's allocations in this process. Every application of the year meets on this
 * one stream: deciding each alone meant each re-read (and re-folded) the whole stream, and the
 * racers lost to each other until most gave up. Here requests queue while an append is running
 * and the next append numbers every one of them at once, from the state this process already
 * knows. The append's expected revision still settles races with other API nodes: when it fails,
 * the stream is read again and the batch decided again on the fresh state.
 */
class SequenceAllocator {
  private known: KnownSequence | null = null;
  private queue: Waiter[] = [];
  private running = false;

  constructor(
    private readonly store: EventStore,
    private readonly sequence: string,
  ) {}

  allocate(ownerId: string, metadata: EventMetadata): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ ownerId, metadata, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        await this.settle(batch);
      }
    } finally {
      this.running = false;
    }
  }

  private async settle(batch: Waiter[]): Promise<void> {
    const stream = streams.sequence(this.sequence);
    for (let attempt = 1; ; attempt++) {
      try {
        const known = (this.known ??= fold(await this.store.readStream(stream)));
        const events: { ownerId: string; metadata: EventMetadata; number: number }[] = [];
        const planned = new Map<string, number>();
        let last = known.last;
        for (const { ownerId, metadata } of batch) {
          if (known.byOwner.has(ownerId) || planned.has(ownerId)) continue;
          planned.set(ownerId, ++last);
          events.push({ ownerId, metadata, number: last });
        }
        if (events.length > 0) {
          const newEvents = events.map(({ ownerId, metadata, number }) => {
            const event: SequenceEvent = { type: 'SequenceNumberAllocated', data: { sequence: this.sequence, number, allocatedFor: ownerId } };
            parseDomainEvent(event.type, event.data);
            return { id: randomUUID(), type: event.type, data: event.data, metadata };
          });
          const result = await this.store.append(stream, newEvents, { expectedRevision: known.revision });
          known.revision = result.nextRevision;
          known.last = last;
          for (const [ownerId, number] of planned) known.byOwner.set(ownerId, number);
        }
        for (const waiter of batch) waiter.resolve(known.byOwner.get(waiter.ownerId)!);
        return;
      } catch (error) {
        // Whatever failed, what this process knew may be stale: read the stream again next time.
        this.known = null;
        if (error instanceof WrongExpectedVersion && attempt < MAX_ATTEMPTS) {
          // Another node appended; a short random pause keeps several nodes from retrying in lockstep.
          if (attempt > 2) await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * attempt));
          continue;
        }
        for (const waiter of batch) waiter.reject(error);
        return;
      }
    }
  }
}

/** The sequence's state from its events (a plain loop: folding through copies costs O(n²) on a busy year's stream). */
function fold(recorded: StreamEvents): KnownSequence {
  const byOwner = new Map<string, number>();
  let last = 0;
  for (const event of recorded) {
    const { data } = parseDomainEvent('SequenceNumberAllocated', event.data) as SequenceEvent;
    last = data.number;
    byOwner.set(data.allocatedFor, data.number);
  }
  return { revision: recorded.revision, last, byOwner };
}

const allocators = new WeakMap<EventStore, Map<string, SequenceAllocator>>();

/** Allocates (or finds again) the readable number of a loan or withdrawal; numbering restarts each year (Manila time). */
export async function allocateNumber(store: EventStore, kind: 'LN' | 'WD', ownerId: string, now: Date, metadata: EventMetadata): Promise<string> {
  const year = new Date(now.getTime() + 8 * 3_600_000).getUTCFullYear();
  const sequence = `${kind === 'LN' ? 'loan' : 'withdrawal'}-numbers-${year}`;
  let bySequence = allocators.get(store);
  if (!bySequence) allocators.set(store, (bySequence = new Map<string, SequenceAllocator>()));
  let allocator = bySequence.get(sequence);
  if (!allocator) bySequence.set(sequence, (allocator = new SequenceAllocator(store, sequence)));
  return formatSequenceNumber(kind, year, await allocator.allocate(ownerId, metadata));
}

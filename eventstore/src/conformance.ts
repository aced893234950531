import { randomUUID } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotentRetryMismatch } from './idempotentRetry.js';
import { WrongExpectedVersion, type EventMetadata, type EventStore, type ExpectedRevision, type IntegrityGuarantees, type NewEvent, type RecordedEvent } from './port.js';
import { chainPages } from './integrity/chainReader.js';
import { eventHash } from './integrity/eventHash.js';

/** One adapter, as the conformance suite needs it. */
export interface ConformanceTarget {
  /** Adapter name, used in the test names. */
  name: string;
  /** Opens the store the suite writes to (once). Tests never assume it is empty: EventStoreDB's $all is shared. */
  open: () => Promise<EventStore>;
  /** Opens a store on a log nobody has written to, where the adapter can have one. */
  openEmpty?: () => Promise<EventStore>;
  /** Releases what `open` needed (schemas, containers), after the suite has closed its stores. */
  dispose?: () => Promise<void>;
  /** How long `open` may take (starting a container pulls an image). Default 60 s. */
  openTimeoutMs?: number;
  /** What the adapter guarantees against a rewritten log (README "Tamper evidence"); the suite checks it gives exactly that. */
  integrity: IntegrityGuarantees;
}

function newEvent(type = 'ThingHappened', data: Record<string, unknown> = {}, metadata?: EventMetadata): NewEvent {
  return { id: randomUUID(), type, data, ...(metadata ? { metadata } : {}) };
}

function newEvents(count: number, type = 'ThingHappened'): NewEvent[] {
  return Array.from({ length: count }, (_, n) => newEvent(type, { n }));
}

function uniqueStream(label: string): string {
  return `${label}-${randomUUID()}`;
}

async function conflictOf(append: Promise<unknown>): Promise<WrongExpectedVersion> {
  const error = await append.then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error, 'the append should have been refused').toBeInstanceOf(WrongExpectedVersion);
  return error as WrongExpectedVersion;
}

/** Everything after `from`, however long, in pages as a projection would read it. */
async function readAllAfter(store: EventStore, from: number): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for (let position = from; ;) {
    const page = await store.readAll({ from: position, limit: 500 });
    if (page.length === 0) return events;
    // A store that answered at or before `from` would otherwise be paged through forever.
    expect(page[0].position, 'readAll must return only positions after `from`').toBeGreaterThan(position);
    events.push(...page);
    position = page[page.length - 1].position;
  }
}

function idsOf(events: readonly { id: string }[]): string[] {
  return events.map((event) => event.id);
}

/** A subscription running in the background, collecting what it yields. */
function collectFrom(store: EventStore, from: number) {
  const controller = new AbortController();
  const seen: RecordedEvent[] = [];
  const onEvent = new Set<() => void>();
  const done = (async () => {
    for await (const event of store.subscribeAll({ from, signal: controller.signal })) {
      seen.push(event);
      for (const notify of onEvent) notify();
    }
  })();
  return {
    seen,
    signal: controller.signal,
    done,
    /** Resolves once `predicate(seen)` holds; fails after `timeoutMs`, or if the subscription fails or ends first. */
    async waitFor(what: string, predicate: (seen: RecordedEvent[]) => boolean, timeoutMs = 10_000): Promise<void> {
      if (predicate(seen)) return;
      let notify: () => void = () => undefined;
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          new Promise<void>((resolve) => {
            notify = () => {
              if (predicate(seen)) resolve();
            };
            onEvent.add(notify);
          }),
          done.then(() => {
            throw new Error(`the subscription ended while waiting for ${what} (saw ${seen.length} events)`);
          }),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`timed out waiting for ${what} (saw ${seen.length} events)`)), timeoutMs);
          }),
        ]);
      } finally {
        onEvent.delete(notify);
        clearTimeout(timer);
      }
    },
    async stop(): Promise<void> {
      controller.abort();
      await done;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Registers the behaviour every EventStore adapter must have. Each test works on streams of its
 * own and on positions it observed, so the suite also runs against a store others write to.
 */
export function describeEventStoreConformance(target: ConformanceTarget): void {
  describe(`${target.name} conformance`, () => {
    let store: EventStore;

    beforeAll(async () => {
      store = await target.open();
    }, target.openTimeoutMs ?? 60_000);

    afterAll(async () => {
      await store?.close();
      await target.dispose?.();
    }, 60_000);

    describe('expected revision', () => {
      it('creates a stream with no_stream, numbering revisions from 0, and refuses no_stream once it exists', async () => {
        const stream = uniqueStream('member');
        const result = await store.append(stream, newEvents(3), { expectedRevision: 'no_stream' });
        const stored = await store.readStream(stream);
        expect(stored.map((event) => event.revision)).toEqual([0, 1, 2]);
        expect(result).toEqual({ nextRevision: 2, position: stored[2].position });
        expect(stored.revision).toBe(2);

        const conflict = await conflictOf(store.append(stream, newEvents(1), { expectedRevision: 'no_stream' }));
        expect(conflict).toMatchObject({ name: 'WrongExpectedVersion', stream, expected: 'no_stream', actual: 2 });
        expect(await store.readStream(stream)).toHaveLength(3);
      });

      it('appends at the exact revision of the last event, and refuses a stale or future one with the actual revision', async () => {
        const stream = uniqueStream('loan');
        await store.append(stream, newEvents(2), { expectedRevision: 'no_stream' });
        const next = await store.append(stream, newEvents(1), { expectedRevision: 1 });
        expect(next.nextRevision).toBe(2);

        const stale = await conflictOf(store.append(stream, newEvents(1), { expectedRevision: 1 }));
        expect(stale).toMatchObject({ stream, expected: 1, actual: 2 });
        const future = await conflictOf(store.append(stream, newEvents(1), { expectedRevision: 7 }));
        expect(future).toMatchObject({ stream, expected: 7, actual: 2 });
        expect((await store.readStream(stream)).map((event) => event.revision)).toEqual([0, 1, 2]);
      });

      it('refuses an exact revision on a stream that does not exist, reporting no_stream', async () => {
        const stream = uniqueStream('withdrawal');
        const conflict = await conflictOf(store.append(stream, newEvents(1), { expectedRevision: 0 }));
        expect(conflict).toMatchObject({ stream, expected: 0, actual: 'no_stream' });
        expect(await store.readStream(stream)).toEqual([]);
      });

      it("appends with 'any' whether or not the stream exists", async () => {
        const stream = uniqueStream('settings');
        expect((await store.append(stream, newEvents(2), { expectedRevision: 'any' })).nextRevision).toBe(1);
        expect((await store.append(stream, newEvents(1), { expectedRevision: 'any' })).nextRevision).toBe(2);
        expect(await store.readStream(stream)).toHaveLength(3);
      });

      it('lets exactly one of several concurrent appends at the same revision win', async () => {
        const stream = uniqueStream('phone');
        await store.append(stream, newEvents(1), { expectedRevision: 'no_stream' });
        const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => store.append(stream, newEvents(2), { expectedRevision: 0 })));
        const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
        const lost = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(4);
        for (const { reason } of lost) expect(reason).toMatchObject({ name: 'WrongExpectedVersion', expected: 0, actual: 2 });
        expect((await store.readStream(stream)).map((event) => event.revision)).toEqual([0, 1, 2]);
      });
    });

    describe('idempotent retries', () => {
      it('treats re-appending the same event ids as a no-op that answers the original result', async () => {
        const start = await store.headPosition();
        const stream = uniqueStream('member');
        const batch = newEvents(2);
        const original = await store.append(stream, batch, { expectedRevision: 'no_stream' });
        expect(await store.append(stream, batch, { expectedRevision: 'no_stream' })).toEqual(original);

        // The retry is recognised before the revision check, even after the stream moved on.
        const later = await store.append(stream, newEvents(1), { expectedRevision: 1 });
        expect(await store.append(stream, batch, { expectedRevision: 'no_stream' })).toEqual(original);
        expect(await store.append(stream, batch, { expectedRevision: 9 })).toEqual(original);
        expect(await store.append(stream, batch, { expectedRevision: 'any' })).toEqual(original);

        const stored = await store.readStream(stream);
        expect(idsOf(stored)).toEqual([...idsOf(batch), stored[2].id]);
        expect(stored[2].position).toBe(later.position);
        const logged = (await readAllAfter(store, start)).filter((event) => event.stream === stream);
        expect(idsOf(logged)).toEqual(idsOf(stored));
      });

      it('recognises a retried single event appended with any', async () => {
        const stream = uniqueStream('settings');
        const event = newEvent();
        const original = await store.append(stream, [event], { expectedRevision: 'any' });
        await store.append(stream, newEvents(1), { expectedRevision: 'any' });
        expect(await store.append(stream, [event], { expectedRevision: 'any' })).toEqual(original);
        expect(await store.readStream(stream)).toHaveLength(2);
      });

      it('refuses an append mixing stored and new ids, or stored ids in another order, and writes nothing', async () => {
        const stream = uniqueStream('loan');
        const batch = newEvents(2);
        await store.append(stream, batch, { expectedRevision: 'no_stream' });
        await expect(store.append(stream, [batch[1], newEvent()], { expectedRevision: 1 })).rejects.toBeInstanceOf(IdempotentRetryMismatch);
        await expect(store.append(stream, [batch[1], batch[0]], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(IdempotentRetryMismatch);
        expect(idsOf(await store.readStream(stream))).toEqual(idsOf(batch));
      });
    });

    describe('readStream', () => {
      it('returns a stream in revision order with every field as appended', async () => {
        const stream = uniqueStream('loan');
        const data = { amountCentavos: 8_000_000, currency: 'PHP', note: 'Salamat — ₱', tags: ['a', 'b'], nested: { ok: true, none: null } };
        const first = [newEvent('LoanApplied', data), newEvent('LoanReviewed', { by: 'admin-1' })];
        const second = [newEvent('LoanApproved', { at: '2026-01-02' })];
        const before = Date.now();
        await store.append(stream, first, { expectedRevision: 'no_stream' });
        await store.append(stream, second, { expectedRevision: 1 });
        const stored = await store.readStream(stream);

        expect(stored.map(({ id, stream: name, type, data: body, revision }) => ({ id, stream: name, type, data: body, revision }))).toEqual(
          [...first, ...second].map(({ id, type, data: body }, revision) => ({ id, stream, type, data: body, revision })),
        );
        for (let i = 1; i < stored.length; i++) expect(stored[i].position).toBeGreaterThan(stored[i - 1].position);
        for (const event of stored) {
          expect(new Date(event.createdAt).toISOString()).toBe(event.createdAt);
          expect(Math.abs(Date.parse(event.createdAt) - before)).toBeLessThan(5 * 60_000);
        }
      });

      it('returns an empty list for a stream that does not exist, at revision no_stream', async () => {
        const missing = await store.readStream(uniqueStream('nobody'));
        expect(missing).toEqual([]);
        expect(missing.revision).toBe('no_stream');
      });
    });

    describe('readAll', () => {
      it('returns every stream in global order, after `from` (exclusive), at most `limit` at a time', async () => {
        const start = await store.headPosition();
        const [a, b] = [uniqueStream('member'), uniqueStream('loan')];
        const appended = [newEvent('One'), newEvent('Two'), newEvent('Three'), newEvent('Four'), newEvent('Five')];
        await store.append(a, [appended[0]], { expectedRevision: 'no_stream' });
        await store.append(b, [appended[1], appended[2]], { expectedRevision: 'no_stream' });
        await store.append(a, [appended[3]], { expectedRevision: 0 });
        await store.append(b, [appended[4]], { expectedRevision: 1 });

        const all = await store.readAll({ from: start, limit: 10 });
        expect(idsOf(all)).toEqual(idsOf(appended));
        expect(all.map((event) => event.stream)).toEqual([a, b, b, a, b]);
        for (let i = 1; i < all.length; i++) expect(all[i].position).toBeGreaterThan(all[i - 1].position);

        expect(idsOf(await store.readAll({ from: start, limit: 2 }))).toEqual(idsOf(appended.slice(0, 2)));
        expect(idsOf(await store.readAll({ from: all[1].position, limit: 2 }))).toEqual(idsOf(appended.slice(2, 4)));
        expect(idsOf(await store.readAll({ from: all[3].position }))).toEqual(idsOf(appended.slice(4)));
        expect(await store.readAll({ from: all[4].position })).toEqual([]);
      });

      it('resumes exactly after a position inside a multi-event append', async () => {
        const stream = uniqueStream('member');
        await store.append(stream, newEvents(3), { expectedRevision: 'no_stream' });
        const [, second, third] = await store.readStream(stream);
        expect(idsOf(await store.readAll({ from: second.position, limit: 5 }))).toEqual([third.id]);
      });
    });

    describe('subscribeAll', () => {
      it('delivers catch-up then live events in global order, with no gap and no duplicate, while 4 writers append 2,000 events', async () => {
        const start = await store.headPosition();
        const ownStreams = [uniqueStream('writer-a'), uniqueStream('writer-b')];
        // Writers 2 and 3 move to a new shared stream every 50 events: 'any' appends may have to
        // read their stream to recognise retries, and short streams keep that cheap.
        const sharedPrefix = uniqueStream('writers-c-d');
        const sharedStreamOf = (n: number) => `${sharedPrefix}-${Math.floor(n / 50)}`;
        const ours = new Set<string>();
        const revisions: ExpectedRevision[] = ['no_stream', 'no_stream'];
        // Writers 0 and 1 own a stream each and append at exact revisions; 2 and 3 share one with 'any'.
        const write = async (writer: number, from: number, to: number) => {
          for (let n = from; n < to;) {
            const size = Math.min(1 + ((n + writer) % 4), to - n, 50 - (n % 50));
            const batch = Array.from({ length: size }, (_, i) => newEvent('Counted', { writer, n: n + i }));
            for (const event of batch) ours.add(event.id);
            if (writer < 2) {
              revisions[writer] = (await store.append(ownStreams[writer], batch, { expectedRevision: revisions[writer] })).nextRevision;
            } else {
              await store.append(sharedStreamOf(n), batch, { expectedRevision: 'any' });
            }
            n += size;
          }
        };
        const writers = [0, 1, 2, 3];
        const countOurs = (events: RecordedEvent[]) => events.filter((event) => ours.has(event.id)).length;

        // 300 events exist before the subscription starts (catch-up), 1,700 are appended while it is live.
        await Promise.all(writers.map((writer) => write(writer, 0, 75)));
        const subscription = collectFrom(store, start);
        try {
          await subscription.waitFor('the catch-up of 300 events', (seen) => countOurs(seen) === 300);
          await Promise.all(writers.map((writer) => write(writer, 75, 500)));
          await subscription.waitFor('all 2,000 events', (seen) => countOurs(seen) === 2000, 20_000);
        } finally {
          await subscription.stop();
        }

        const seen = subscription.seen;
        expect(new Set(idsOf(seen)).size).toBe(seen.length);
        for (let i = 1; i < seen.length; i++) expect(seen[i].position).toBeGreaterThan(seen[i - 1].position);
        const logged = (await readAllAfter(store, start)).filter((event) => event.position <= seen[seen.length - 1].position);
        expect(idsOf(seen)).toEqual(idsOf(logged));
        const streamsSeen = new Set(seen.filter((event) => ours.has(event.id)).map((event) => event.stream));
        expect(streamsSeen.size).toBe(2 + 10);
        for (const stream of streamsSeen) {
          const revisionsSeen = seen.filter((event) => event.stream === stream).map((event) => event.revision);
          expect(revisionsSeen).toEqual(revisionsSeen.map((_, i) => i));
        }
        expect(countOurs(seen)).toBe(2000);
      }, 30_000);

      it('resumes after a position: only later events, starting inside a multi-event append', async () => {
        const before = uniqueStream('member');
        const after = uniqueStream('loan');
        const earlier = await store.append(before, newEvents(2), { expectedRevision: 'no_stream' });
        await store.append(after, newEvents(3), { expectedRevision: 'no_stream' });
        const later = await store.readStream(after);

        const fromAppend = collectFrom(store, earlier.position);
        const fromInside = collectFrom(store, later[0].position);
        try {
          await fromAppend.waitFor('the three later events', (seen) => seen.length >= 3);
          await fromInside.waitFor('the last two events', (seen) => seen.length >= 2);
        } finally {
          await Promise.all([fromAppend.stop(), fromInside.stop()]);
        }
        expect(idsOf(fromAppend.seen.slice(0, 3))).toEqual(idsOf(later));
        expect(idsOf(fromInside.seen.slice(0, 2))).toEqual(idsOf(later.slice(1)));
      });

      it('delivers a live append promptly, being woken rather than waiting for a poll', async () => {
        const start = await store.headPosition();
        const stream = uniqueStream('member');
        const subscription = collectFrom(store, start);
        try {
          await store.append(stream, newEvents(1), { expectedRevision: 'no_stream' });
          await subscription.waitFor('the first event', (seen) => seen.some((event) => event.stream === stream));
          await sleep(100);
          const appending = Date.now();
          await store.append(stream, newEvents(1), { expectedRevision: 0 });
          await subscription.waitFor('the live event', (seen) => seen.filter((event) => event.stream === stream).length === 2, 3000);
          expect(Date.now() - appending).toBeLessThan(1000);
        } finally {
          await subscription.stop();
        }
      });

      it('ends the loop promptly when aborted while waiting for live events, and yields nothing appended afterwards', async () => {
        const start = await store.headPosition();
        const stream = uniqueStream('member');
        const subscription = collectFrom(store, start);
        await store.append(stream, newEvents(1), { expectedRevision: 'no_stream' });
        await subscription.waitFor('the first event', (seen) => seen.some((event) => event.stream === stream));
        await sleep(50);

        const aborting = Date.now();
        await subscription.stop();
        expect(Date.now() - aborting).toBeLessThan(2000);
        expect(getEventListeners(subscription.signal, 'abort')).toHaveLength(0);

        const seenAtAbort = subscription.seen.length;
        await store.append(stream, newEvents(2), { expectedRevision: 0 });
        await sleep(300);
        expect(subscription.seen).toHaveLength(seenAtAbort);
        expect(subscription.seen.filter((event) => event.stream === stream)).toHaveLength(1);
      });

      it('ends the loop at the next event when aborted from inside the loop body', async () => {
        const start = await store.headPosition();
        const stream = uniqueStream('loan');
        await store.append(stream, newEvents(5), { expectedRevision: 'no_stream' });
        const controller = new AbortController();
        const seen: RecordedEvent[] = [];
        for await (const event of store.subscribeAll({ from: start, signal: controller.signal })) {
          seen.push(event);
          controller.abort();
        }
        expect(seen).toHaveLength(1);
        expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      });

      it('yields nothing when the signal is already aborted', async () => {
        const start = await store.headPosition();
        await store.append(uniqueStream('member'), newEvents(2), { expectedRevision: 'no_stream' });
        const seen: RecordedEvent[] = [];
        for await (const event of store.subscribeAll({ from: start, signal: AbortSignal.abort() })) seen.push(event);
        expect(seen).toEqual([]);
      });

      it('stops listening when the loop is left with break', async () => {
        const start = await store.headPosition();
        await store.append(uniqueStream('member'), newEvents(3), { expectedRevision: 'no_stream' });
        const controller = new AbortController();
        let count = 0;
        for await (const event of store.subscribeAll({ from: start, signal: controller.signal })) {
          expect(event.position).toBeGreaterThan(start);
          if (++count === 2) break;
        }
        expect(count).toBe(2);
        expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      });
    });

    it('round-trips metadata (correlationId, causationId, actorId, ip and extra keys) through every read', async () => {
      const start = await store.headPosition();
      const stream = uniqueStream('member');
      const metadata: EventMetadata = {
        correlationId: randomUUID(),
        causationId: randomUUID(),
        actorId: 'admin-7',
        ip: '203.0.113.9',
        userAgent: 'Mozilla/5.0',
      };
      await store.append(stream, [newEvent('BalanceAdjusted', { amountCentavos: -500 }, metadata), newEvent('Noted')], { expectedRevision: 'no_stream' });

      const subscription = collectFrom(store, start);
      try {
        await subscription.waitFor('both events', (seen) => seen.filter((event) => event.stream === stream).length === 2);
      } finally {
        await subscription.stop();
      }
      const reads = [await store.readStream(stream), (await readAllAfter(store, start)).filter((event) => event.stream === stream), subscription.seen.filter((event) => event.stream === stream)];
      for (const [withMetadata, without] of reads) {
        expect(withMetadata.metadata).toEqual(metadata);
        expect(without.metadata).toEqual({});
      }
    });

    it('reports the newest position as headPosition, equal to the last append result', async () => {
      const result = await store.append(uniqueStream('member'), newEvents(3), { expectedRevision: 'no_stream' });
      expect(await store.headPosition()).toBe(result.position);
      expect(await store.readAll({ from: result.position })).toEqual([]);
    });

    it('keeps one store id, the same on every call', async () => {
      const id = await store.storeId();
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(await store.storeId()).toBe(id);
    });

    if (target.openEmpty) {
      const openEmpty = target.openEmpty;
      it(
        'reports headPosition 0 and reads nothing on an empty store, which has a store id of its own',
        async () => {
          const empty = await openEmpty();
          try {
            expect(await empty.headPosition()).toBe(0);
            expect(await empty.readAll()).toEqual([]);
            const first = await empty.append(uniqueStream('member'), newEvents(1), { expectedRevision: 'no_stream' });
            expect(first.position).toBeGreaterThan(0);
            expect(await empty.headPosition()).toBe(first.position);
            expect(await empty.storeId()).not.toBe(await store.storeId());
          } finally {
            await empty.close();
          }
        },
        target.openTimeoutMs ?? 60_000,
      );
    }

    it('answers ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    describe('integrity guarantees', () => {
      const { appendOnly, hashChain, densePositions } = target.integrity;
      const said = `append-only by ${appendOnly === 'trigger' ? 'a trigger on the events table' : 'the store itself'}, hash chain ${hashChain}, positions ${densePositions ? 'dense' : 'sparse'}`;

      it(`states what it guarantees: ${said}`, () => {
        expect(store.integrity).toEqual(target.integrity);
      });

      if (hashChain === 'stored') {
        it('stores each event linked to the one before it, its hash covering its position, link and content', async () => {
          const start = await store.headPosition();
          const before = start > 0 ? (await store.readChain!({ from: start - 1, limit: 1 }))[0] : undefined;
          await store.append(uniqueStream('member'), newEvents(3), { expectedRevision: 'no_stream' });
          await store.append(uniqueStream('loan'), [newEvent('ThingHappened', { amountCentavos: 125_050, note: 'peso ₱ sign' }, { actorId: 'tester' })], {
            expectedRevision: 'no_stream',
          });
          const chained = await store.readChain!({ from: start, limit: 100 });
          expect(chained.length).toBeGreaterThanOrEqual(4);
          let prev = before?.hash;
          for (const event of chained) {
            if (prev !== undefined) expect(event.prevHash, `link at ${event.position}`).toBe(prev);
            expect(eventHash(event.position, event.prevHash, event), `hash at ${event.position}`).toBe(event.hash);
            prev = event.hash;
          }
          expect(chained.map(({ prevHash: _p, hash: _h, ...recorded }) => recorded)).toEqual(await store.readAll({ from: start, limit: 100 }));
        });
      } else {
        it.skip(`stores no hash beside its events: the chain is recomputed from the log, and checkpoints sign that digest`, () => undefined);
        it('computes the same chain from the log on every read', async () => {
          const start = await store.headPosition();
          await store.append(uniqueStream('member'), newEvents(3), { expectedRevision: 'no_stream' });
          const read = async () => {
            const hashes: string[] = [];
            for await (const page of chainPages(store, { from: start, prevHash: 'c'.repeat(64) })) hashes.push(...page.map((event) => event.hash));
            return hashes;
          };
          const first = await read();
          expect(first.length).toBeGreaterThanOrEqual(3);
          expect(await read()).toEqual(first);
        });
      }

      if (densePositions) {
        it('numbers positions 1, 2, 3… without gaps, so a removed event shows as a missing position', async () => {
          const start = await store.headPosition();
          await store.append(uniqueStream('member'), newEvents(5), { expectedRevision: 'no_stream' });
          const positions = (await store.readAll({ from: start, limit: 5 })).map((event) => event.position);
          expect(positions).toEqual([start + 1, start + 2, start + 3, start + 4, start + 5]);
        });
      } else {
        it.skip("positions are offsets in the store's own log, not 1, 2, 3…: a removed event shows only against a signed checkpoint", () => undefined);
      }
    });
  });
}

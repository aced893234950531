import { randomUUID } from 'node:crypto';
import { BACKWARDS, CancelledError, END, FORWARDS, UnavailableError, jsonEvent } from '@eventstore/db-client';
import { describe, expect, it } from 'vitest';
import { IdempotentRetryMismatch } from '../idempotentRetry.js';
import { AppendOutcomeUnknown, EventStoreUnavailable, InvalidPosition, WrongExpectedVersion, type NewEvent, type RecordedEvent } from '../port.js';
import { EsdbEventStore, ID_LOOKUP_WINDOW, type EsdbEventStoreOptions } from './esdbEventStore.js';
import { FakeEsdbClient, type FakeRead } from './testing/fakeEsdbClient.js';

/*
 * The adapter's answers to what EventStoreDB's client reports, one issue at a time, over the
 * model of the client in testing/fakeEsdbClient.ts (no server runs here). Short timeouts keep the
 * waits short; the defaults are in EsdbEventStoreOptions.
 */

const quick: EsdbEventStoreOptions = { readIdleTimeoutMs: 200, appendTimeoutMs: 100, pingTimeoutMs: 200, subscribeTimeoutMs: 200 };

function setUp(options: EsdbEventStoreOptions = quick) {
  const client = new FakeEsdbClient();
  return { client, store: EsdbEventStore.over(client, options) };
}

const newEvents = (count: number): NewEvent[] => Array.from({ length: count }, (_, n) => ({ id: randomUUID(), type: 'ThingHappened', data: { n } }));
const idsOf = (events: readonly { id: string }[]) => events.map((event) => event.id);
const streamName = () => `loan-${randomUUID()}`;

/** The reads the adapter made of one stream. */
const readsOf = (client: FakeEsdbClient, stream: string) => client.reads.filter((read) => read.request.stream === stream);

async function failureOf(attempt: Promise<unknown>): Promise<unknown> {
  return attempt.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

describe('an append whose outcome is unknown', () => {
  it('answers the original result when the append timed out on the server after writing', async () => {
    const { client, store } = setUp();
    const stream = streamName();
    await store.append(stream, newEvents(1), { expectedRevision: 'no_stream' });
    const batch = newEvents(2);
    client.failNextAppends({ kind: 'server-timeout', written: true });

    const result = await store.append(stream, batch, { expectedRevision: 0 });

    const stored = client.records(stream);
    expect(idsOf(stored)).toEqual([stored[0].id, ...idsOf(batch)]);
    expect(result).toEqual({ nextRevision: 2, position: Number(stored[2].position.commit) });
    // Found in the log: nothing was sent again.
    expect(client.appends.filter((append) => append.stream === stream)).toHaveLength(2);
  });

  it('sends the same ids with the same expected revision again when the first attempt was not written, and answers that result', async () => {
    const { client, store } = setUp();
    const stream = streamName();
    const batch = newEvents(2);
    client.failNextAppends({ kind: 'connection-lost', written: false });

    const result = await store.append(stream, batch, { expectedRevision: 'no_stream' });

    expect(client.appends.map(({ ids, expectedRevision }) => ({ ids, expectedRevision }))).toEqual([
      { ids: idsOf(batch), expectedRevision: 'no_stream' },
      { ids: idsOf(batch), expectedRevision: 'no_stream' },
    ]);
    expect(idsOf(client.records(stream))).toEqual(idsOf(batch));
    expect(result.nextRevision).toBe(1);
  });

  it('fails with AppendOutcomeUnknown, not EventStoreUnavailable, when neither the append nor the same append sent again is answered', async () => {
    const { client, store } = setUp();
    const stream = streamName();
    const batch = newEvents(1);
    client.failNextAppends({ kind: 'silence', written: false }, { kind: 'server-timeout', written: false });

    const failure = await failureOf(store.append(stream, batch, { expectedRevision: 'no_stream' }));

    expect(failure).toBeInstanceOf(AppendOutcomeUnknown);
    expect(failure).not.toBeInstanceOf(EventStoreUnavailable);
    expect((failure as AppendOutcomeUnknown).stream).toBe(stream);
    // Only ever the same ids, each time with a deadline.
    expect(client.appends.map(({ ids }) => ids)).toEqual([idsOf(batch), idsOf(batch)]);
    expect(client.appends.every(({ deadline }) => deadline === quick.appendTimeoutMs)).toBe(true);
  });

  it('is never reported as not written once it may have been: a stream that cannot be read while settling makes it unknown', async () => {
    const { client, store } = setUp();
    const stream = streamName();
    await store.append(stream, newEvents(1), { expectedRevision: 'no_stream' });
    // The first attempt goes unanswered (not written); meanwhile another writer moves the stream,
    // so the same append sent again is refused, and the stream cannot be read either time to check.
    client.failNextAppends({ kind: 'silence', written: false });
    const appending = failureOf(store.append(stream, newEvents(1), { expectedRevision: 0 }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await client.appendToStream(stream, [jsonEvent({ id: randomUUID(), type: 'ThingHappened', data: {} })], { expectedRevision: 0n });
    client.failNextReads(new UnavailableError(undefined, 'connection lost'), new UnavailableError(undefined, 'connection lost'));
    expect(await appending).toBeInstanceOf(AppendOutcomeUnknown);
  });

  it('is unknown, not "not written", when the server confirms it but its position cannot be read back', async () => {
    const { client, store } = setUp();
    const stream = streamName();
    const batch = newEvents(2);
    await store.append(stream, batch, { expectedRevision: 'no_stream' });
    // Sent again, the server recognises the batch and answers without a position.
    client.failNextReads(new UnavailableError(undefined, 'connection lost'));
    const failure = await failureOf(store.append(stream, batch, { expectedRevision: 'no_stream' }));
    expect(failure).toBeInstanceOf(AppendOutcomeUnknown);
    expect((failure as Error).message).toMatch(/is written, but its position could not be read back/);
  });

  it('settles a server-side cancel the same way: the events were written, so the original result', async () => {
    const { client, store } = setUp();
    const stream = streamName();
    const batch = newEvents(1);
    client.failNextAppends({ kind: 'server-cancel', written: true });
    const result = await store.append(stream, batch, { expectedRevision: 'any' });
    expect(result.nextRevision).toBe(0);
    expect(client.records(stream)).toHaveLength(1);
  });
});

describe('reads that get no answer', () => {
  const stalledRead = (client: FakeEsdbClient): FakeRead => {
    const read = client.reads.at(-1);
    if (!read) throw new Error('no read was made');
    return read;
  };

  it('cancel a stream read, an $all read, headPosition and ping after the idle timeout, with EventStoreUnavailable', async () => {
    const { client, store } = setUp();
    client.stalled = true;
    for (const call of [() => store.readStream(streamName()), () => store.readAll(), () => store.headPosition(), () => store.ping()]) {
      const started = Date.now();
      const failure = await failureOf(call());
      expect(failure).toBeInstanceOf(EventStoreUnavailable);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(stalledRead(client).cancelled).toBe(true);
    }
  }, 10_000);

  it('keeps a read that keeps receiving, however long it takes in all', async () => {
    const { client, store } = setUp({ ...quick, readIdleTimeoutMs: 100 });
    const stream = streamName();
    await store.append(stream, newEvents(3), { expectedRevision: 'no_stream' });
    const original = client.readStream.bind(client);
    // Each record arrives 60 ms after the one before: 240 ms in all, never 100 ms of silence.
    client.readStream = (name, options) => {
      const read = original(name, options);
      const slowed = new (read.constructor as typeof FakeRead)({ stream: name, options });
      void (async () => {
        for await (const item of read) {
          await new Promise((resolve) => setTimeout(resolve, 60));
          slowed.write(item);
        }
        await new Promise((resolve) => setTimeout(resolve, 60));
        slowed.end();
      })();
      return slowed;
    };
    expect(await store.readStream(stream)).toHaveLength(3);
  });

  it('give up at once when the caller aborts: ping and headPosition cancel their read', async () => {
    const { client, store } = setUp({ ...quick, readIdleTimeoutMs: 60_000, pingTimeoutMs: 60_000 });
    client.stalled = true;
    for (const call of [(signal: AbortSignal) => store.ping({ signal }), (signal: AbortSignal) => store.headPosition({ signal })]) {
      const controller = new AbortController();
      const pending = failureOf(call(controller.signal));
      await new Promise((resolve) => setTimeout(resolve, 20));
      controller.abort(new Error('the readiness probe stopped waiting'));
      expect(await pending).toMatchObject({ message: 'the readiness probe stopped waiting' });
      expect(stalledRead(client).cancelled).toBe(true);
    }
  });

  it('fail a subscription the server never confirms with EventStoreUnavailable', async () => {
    const { client, store } = setUp();
    client.stalled = true;
    const failure = await failureOf(
      (async () => {
        for await (const event of store.subscribeAll()) void event;
      })(),
    );
    expect(failure).toBeInstanceOf(EventStoreUnavailable);
    expect(client.subscriptions[0].unsubscribed).toBe(true);
  });
});

describe('an append at the current revision that re-sends stored ids', () => {
  it('is refused and writes nothing, though EventStoreDB would append ids it already holds', async () => {
    const { client, store } = setUp();
    const stream = streamName();
    const batch = newEvents(2);
    await store.append(stream, batch, { expectedRevision: 'no_stream' });

    await expect(store.append(stream, [batch[1], ...newEvents(1)], { expectedRevision: 1 })).rejects.toBeInstanceOf(IdempotentRetryMismatch);

    expect(idsOf(client.records(stream))).toEqual(idsOf(batch));
  });

  it('answers the original result for the same batch re-sent at its own last revision', async () => {
    const { client, store } = setUp();
    const stream = streamName();
    const batch = newEvents(2);
    const original = await store.append(stream, batch, { expectedRevision: 'no_stream' });
    expect(await store.append(stream, batch, { expectedRevision: 1 })).toEqual(original);
    expect(client.records(stream)).toHaveLength(2);
  });
});

describe('positions from elsewhere', () => {
  it('refuse a from that is no record of this log with InvalidPosition, in readAll and subscribeAll', async () => {
    const { store } = setUp();
    await store.append(streamName(), newEvents(3), { expectedRevision: 'no_stream' });
    const made = 12_345;
    await expect(store.readAll({ from: made })).rejects.toBeInstanceOf(InvalidPosition);
    const subscribed = failureOf(
      (async () => {
        for await (const event of store.subscribeAll({ from: made })) void event;
      })(),
    );
    expect(await subscribed).toBeInstanceOf(InvalidPosition);
    expect(await subscribed).toMatchObject({ position: made });
  });

  it('keeps the store id in the store: one id for every process on one server, another for another server', async () => {
    const server = new FakeEsdbClient();
    const [first, second] = [EsdbEventStore.over(server, quick), EsdbEventStore.over(server, quick)];
    const ids = await Promise.all([first.storeId(), second.storeId(), first.storeId()]);
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(await EsdbEventStore.over(new FakeEsdbClient(), quick).storeId()).not.toBe(ids[0]);
    // Kept where no read of the port looks: the log shows none of it.
    expect(await first.readAll()).toEqual([]);
    expect(await first.headPosition()).toBe(0);
  });
});

describe('looking for re-sent ids', () => {
  it('reads a bounded window of the stream on a conflict, not the whole stream', async () => {
    const { client, store } = setUp();
    const stream = streamName();
    for (let revision = -1; revision < 999; revision += 100) {
      await store.append(stream, newEvents(100), { expectedRevision: revision < 0 ? 'no_stream' : revision });
    }
    const readsBefore = readsOf(client, stream).length;

    const conflict = await failureOf(store.append(stream, newEvents(1), { expectedRevision: 500 }));

    expect(conflict).toBeInstanceOf(WrongExpectedVersion);
    expect(conflict).toMatchObject({ expected: 500, actual: 999 });
    const reads = readsOf(client, stream).slice(readsBefore);
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) expect(Number(read.request.options.maxCount)).toBeLessThanOrEqual(ID_LOOKUP_WINDOW);
  });

  it('still recognises a retry whose first attempt was followed by more events than the window', async () => {
    const { client, store } = setUp();
    const stream = streamName();
    await store.append(stream, newEvents(1), { expectedRevision: 'no_stream' });
    const batch = newEvents(2);
    const original = await store.append(stream, batch, { expectedRevision: 0 });
    await store.append(stream, newEvents(ID_LOOKUP_WINDOW * 2), { expectedRevision: 2 });

    expect(await store.append(stream, batch, { expectedRevision: 0 })).toEqual(original);
    expect(client.records(stream)).toHaveLength(3 + ID_LOOKUP_WINDOW * 2);
  });

  it('reads from the leader, where every acknowledged write is', async () => {
    const { client, store } = setUp();
    const stream = streamName();
    await store.append(stream, newEvents(1), { expectedRevision: 'no_stream' });
    await failureOf(store.append(stream, newEvents(1), { expectedRevision: 'no_stream' }));
    const lookups = readsOf(client, stream).filter((read) => (read.request.options as { direction?: unknown }).direction === BACKWARDS);
    expect(lookups.length).toBeGreaterThan(0);
    for (const read of lookups) expect(read.request.options).toMatchObject({ requiresLeader: true, fromRevision: END });
  });
});

describe('a client that reports conflicts as results', () => {
  it('still turns a refused append into WrongExpectedVersion and writes nothing', async () => {
    const { client, store } = setUp();
    const stream = streamName();
    await store.append(stream, newEvents(2), { expectedRevision: 'no_stream' });
    client.conflictsAsResults = true;

    const conflict = await failureOf(store.append(stream, newEvents(1), { expectedRevision: 0 }));

    expect(conflict).toBeInstanceOf(WrongExpectedVersion);
    expect(conflict).toMatchObject({ stream, expected: 0, actual: 1 });
    expect(client.records(stream)).toHaveLength(2);
  });

  it('is refused when the connection string asks for one', async () => {
    const opening = EsdbEventStore.open('esdb://127.0.0.1:1?tls=false&throwOnAppendFailure=false');
    await expect(opening).rejects.toBeInstanceOf(TypeError);
    await expect(opening).rejects.toThrow(/throwOnAppendFailure=false/);
  });
});

describe('smaller things', () => {
  it("counts records the port does not carry in the stream's revision, so the next append is at the right place", async () => {
    const { client, store } = setUp();
    const stream = streamName();
    await store.append(stream, newEvents(1), { expectedRevision: 'no_stream' });
    client.writeForeign(stream, { type: 'Scanned', isJson: false });
    client.writeForeign(stream, { type: '$tagged', isJson: true });

    const read = await store.readStream(stream);

    expect(read).toHaveLength(1);
    expect(read.revision).toBe(2);
    expect((await store.append(stream, newEvents(1), { expectedRevision: read.revision })).nextRevision).toBe(3);
    const missing = await store.readStream(streamName());
    expect([missing.length, missing.revision]).toEqual([0, 'no_stream']);
  });

  it('answers a read the server cancelled with EventStoreUnavailable (a 503), not an unknown error', async () => {
    const { client, store } = setUp();
    client.failNextReads(new CancelledError(undefined, '1 CANCELLED: Call cancelled by the server'), new CancelledError(undefined, 'cancelled'));
    await expect(store.readStream(streamName())).rejects.toBeInstanceOf(EventStoreUnavailable);
    await expect(store.readAll()).rejects.toBeInstanceOf(EventStoreUnavailable);
  });

  it('closes the client on close(), ends live subscriptions quietly, and refuses calls afterwards', async () => {
    const { client, store } = setUp();
    const seen: RecordedEvent[] = [];
    const subscribed = (async () => {
      for await (const event of store.subscribeAll()) seen.push(event);
    })();
    await store.append(streamName(), newEvents(1), { expectedRevision: 'no_stream' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await store.close();
    await expect(subscribed).resolves.toBeUndefined();
    expect(seen).toHaveLength(1);
    expect(client.disposeCalls).toBe(1);
    await expect(store.readAll()).rejects.toBeInstanceOf(EventStoreUnavailable);
  });

  it('counts positions in bytes of log', () => {
    expect(setUp().store.positionUnit).toBe('bytes');
  });

  it('reads forwards from the start when reading a stream', async () => {
    const { client, store } = setUp();
    const stream = streamName();
    await store.readStream(stream);
    expect(readsOf(client, stream)[0].request.options).toMatchObject({ direction: FORWARDS });
  });
});

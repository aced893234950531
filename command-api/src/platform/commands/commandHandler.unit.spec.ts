import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { EventOf } from '@honeylend/contracts';
import { AppendOutcomeUnknown } from '@honeylend/eventstore';
import { EsdbEventStore } from '../../../../eventstore/src/esdb/esdbEventStore.js';
import { FakeEsdbClient } from '../../../../eventstore/src/esdb/testing/fakeEsdbClient.js';
import { handleCommand } from './commandHandler.js';
import type { Decider } from './decider.js';

/**
 * The command handler over the EventStoreDB adapter, whose client is a model of the server's
 * answers (no server runs here): what the handler does with an append whose outcome is unknown,
 * and with a stream holding records the port does not carry.
 */
type Allocated = EventOf<'SequenceNumberAllocated'>;
const numbering: Decider<{ last: number }, { owner: string }, Allocated> = {
  initialState: () => ({ last: 0 }),
  evolve: (_state, event) => ({ last: event.data.number }),
  decide: (command, state) => [{ type: 'SequenceNumberAllocated', data: { sequence: 'test', number: state.last + 1, allocatedFor: command.owner } }],
};
const metadata = { actorId: 'test' };

function setUp() {
  const client = new FakeEsdbClient();
  const store = EsdbEventStore.over(client, { readIdleTimeoutMs: 200, appendTimeoutMs: 50, pingTimeoutMs: 200 });
  return { client, store, stream: `sequence-test-${randomUUID()}` };
}

describe('an append whose outcome is unknown', () => {
  it('is answered as such, and its events are never sent again under new ids', async () => {
    const { client, store, stream } = setUp();
    await handleCommand(store, stream, numbering, { owner: randomUUID() }, metadata);
    // Decided first on the state remembered from the first command, then (nothing is remembered
    // after a failure) on a fresh read of the stream: neither may decide again.
    for (const path of ['remembered state', 'fresh read']) {
      const before = client.appends.length;
      client.failNextAppends({ kind: 'silence', written: false }, { kind: 'silence', written: false });
      await expect(handleCommand(store, stream, numbering, { owner: randomUUID() }, metadata), path).rejects.toBeInstanceOf(AppendOutcomeUnknown);
      const sent = client.appends.slice(before);
      expect(sent).toHaveLength(2);
      expect(sent[1].ids).toEqual(sent[0].ids);
      expect(sent[1].expectedRevision).toEqual(sent[0].expectedRevision);
    }
    expect(client.records(stream)).toHaveLength(1);
  });
});

describe('a stream holding an event another client wrote', () => {
  it("appends after it, counting it in the stream's revision, instead of conflicting on every attempt", async () => {
    const { client, store, stream } = setUp();
    await handleCommand(store, stream, numbering, { owner: randomUUID() }, metadata);
    client.writeForeign(stream, { type: 'Scanned', isJson: false });
    // A second process (no remembered state) decides on a fresh read.
    const other = EsdbEventStore.over(client, { readIdleTimeoutMs: 200 });
    const result = await handleCommand(other, stream, numbering, { owner: randomUUID() }, metadata);
    expect(result.events[0].data.number).toBe(2);
    expect(client.records(stream).map((record) => Number(record.revision))).toEqual([0, 1, 2]);
  });
});

/** The store, counting the streams it was asked to read. */
function countingReads(store: ReturnType<typeof setUp>['store']) {
  let reads = 0;
  const counted = new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'readStream') {
        return (...args: Parameters<typeof target.readStream>) => {
          reads++;
          return target.readStream(...args);
        };
      }
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store: counted, reads: () => reads };
}

describe('a state the caller knew at a revision (a read model recording the revision it reflects)', () => {
  it('is decided on and appended expecting that revision, without reading the stream', async () => {
    const { client, store, stream } = setUp();
    await handleCommand(store, stream, numbering, { owner: randomUUID() }, metadata);
    await handleCommand(store, stream, numbering, { owner: randomUUID() }, metadata);
    // Another process, which remembers nothing of this stream, is told its state at revision 1.
    const other = countingReads(EsdbEventStore.over(client, { readIdleTimeoutMs: 200 }));
    const result = await handleCommand(other.store, stream, numbering, { owner: randomUUID() }, metadata, { known: { state: { last: 2 }, revision: 1 } });
    expect(other.reads()).toBe(0);
    expect(result.events[0].data.number).toBe(3);
    expect(client.appends.at(-1)!.expectedRevision).toEqual(1n);
    // The caller's state decided that command only: the next one is decided on the stream as stored.
    const next = await handleCommand(other.store, stream, numbering, { owner: randomUUID() }, metadata);
    expect(other.reads()).toBe(1);
    expect(next.events[0].data.number).toBe(4);
  });

  it('when stale, loses nothing: the append conflicts and the command is decided on a fresh read', async () => {
    const { client, store, stream } = setUp();
    for (let i = 0; i < 3; i++) await handleCommand(store, stream, numbering, { owner: randomUUID() }, metadata);
    const other = countingReads(EsdbEventStore.over(client, { readIdleTimeoutMs: 200 }));
    // The read model still shows revision 0 (number 1); the stream is at revision 2 (number 3).
    const result = await handleCommand(other.store, stream, numbering, { owner: randomUUID() }, metadata, { known: { state: { last: 1 }, revision: 0 } });
    expect(other.reads()).toBe(1);
    expect(result.events[0].data.number).toBe(4);
    expect(client.records(stream).map((record) => Number(record.revision))).toEqual([0, 1, 2, 3]);
  });
});

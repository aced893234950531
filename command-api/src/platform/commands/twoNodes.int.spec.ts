import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventOf } from '@honeylend/contracts';
import { openEventStore, type EventStore } from '@honeylend/eventstore';
import { allocateNumber } from '../sequence/allocateNumber.js';
import { handleCommand } from './commandHandler.js';
import { DomainError, type Decider } from './decider.js';

/**
 * Two API nodes are two store instances on one PostgreSQL schema. Each node remembers the state it
 * reached by its own appends (handleCommand) and the sequences it numbers (allocateNumber); these
 * tests show the other node's writes are never missed because of it.
 */
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `cmd_two_nodes_${randomBytes(5).toString('hex')}`;
const metadata = { actorId: 'test' };

type Allocated = EventOf<'SequenceNumberAllocated'>;
type Allocate = { owner: string; refuseFrom?: number };

/** Numbers one owner per command; refuses once the last number reached `refuseFrom`. */
const numbering: Decider<{ last: number }, Allocate, Allocated> = {
  initialState: () => ({ last: 0 }),
  evolve: (_state, event) => ({ last: event.data.number }),
  decide: (command, state) => {
    if (command.refuseFrom !== undefined && state.last >= command.refuseFrom) throw new DomainError(409, 'FULL', 'No more numbers');
    return [{ type: 'SequenceNumberAllocated', data: { sequence: 'test', number: state.last + 1, allocatedFor: command.owner } }];
  },
};

describe('two API nodes on one PostgreSQL event log', () => {
  let nodeA: EventStore;
  let nodeB: EventStore;

  beforeAll(async () => {
    nodeA = await openEventStore(`${DATABASE_URL}?schema=${schema}`);
    nodeB = await openEventStore(`${DATABASE_URL}?schema=${schema}`);
  });

  afterAll(async () => {
    await nodeA?.close();
    await nodeB?.close();
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  it("decides on the other node's appends, not on the state a node remembers from its own", async () => {
    const stream = `sequence-test-${randomUUID()}`;
    const first = await handleCommand(nodeA, stream, numbering, { owner: randomUUID() }, metadata);
    const second = await handleCommand(nodeB, stream, numbering, { owner: randomUUID() }, metadata);
    // Node A remembers last = 1; the stream is at 2. Its append from memory must fail and be decided again.
    const third = await handleCommand(nodeA, stream, numbering, { owner: randomUUID() }, metadata);
    expect([first, second, third].map((result) => result.events[0].data.number)).toEqual([1, 2, 3]);
    const stored = await nodeB.readStream(stream);
    expect(stored.map((event) => event.data.number)).toEqual([1, 2, 3]);
  });

  it('refuses on the stored stream, not on what a node remembers', async () => {
    const stream = `sequence-test-${randomUUID()}`;
    await handleCommand(nodeA, stream, numbering, { owner: randomUUID() }, metadata);
    await handleCommand(nodeB, stream, numbering, { owner: randomUUID() }, metadata);
    // From memory (last = 1) node A would allow it; the stream (last = 2) refuses it.
    await expect(handleCommand(nodeA, stream, numbering, { owner: randomUUID(), refuseFrom: 2 }, metadata)).rejects.toMatchObject({ code: 'FULL' });
    expect((await nodeA.readStream(stream)).length).toBe(2);
  });

  it('numbers loans from both nodes at once without a gap or a repeat, and finds an owner’s number again on either node', async () => {
    const now = new Date(Date.UTC(2093, 5, 1)); // a year of its own: nothing else numbers loans in it
    const owners = Array.from({ length: 40 }, () => randomUUID());
    const numbers = await Promise.all(owners.map((owner, i) => allocateNumber(i % 2 === 0 ? nodeA : nodeB, 'LN', owner, now, metadata)));
    expect([...numbers].sort()).toEqual(Array.from({ length: 40 }, (_, i) => `LN-2093-${String(i + 1).padStart(6, '0')}`));
    // Asked again (a retried application), each owner keeps its number, whichever node answers.
    const again = await Promise.all(owners.map((owner, i) => allocateNumber(i % 2 === 0 ? nodeB : nodeA, 'LN', owner, now, metadata)));
    expect(again).toEqual(numbers);
  });
});

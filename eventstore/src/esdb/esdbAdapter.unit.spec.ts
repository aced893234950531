import { PassThrough } from 'node:stream';
import { CancelledError, START, UnavailableError, WrongExpectedVersionError } from '@eventstore/db-client';
import { describe, expect, it } from 'vitest';
import { EventStoreUnavailable } from '../port.js';
import { translateEsdbError } from './esdbErrors.js';
import { numericPositionOf, readPositionOf } from './esdbPosition.js';
import { readUntilAborted, type SourceOutcome } from './readUntilAborted.js';

describe('EventStoreDB positions', () => {
  it('maps a self-committed event (commit == prepare) to that log offset', () => {
    expect(numericPositionOf({ commit: 123_456n, prepare: 123_456n }, 'e1')).toBe(123_456);
  });

  it('refuses an event from an explicit transaction, whose commit differs from its prepare', () => {
    expect(() => numericPositionOf({ commit: 900n, prepare: 700n }, 'e1')).toThrow(/explicit \(TCP\) transaction/);
  });

  it('refuses a missing position and the "unknown" sentinel (2^64 - 1)', () => {
    expect(() => numericPositionOf(undefined, 'e1')).toThrow(/without a position/);
    expect(() => numericPositionOf({ commit: 2n ** 64n - 1n, prepare: 2n ** 64n - 1n }, 'e1')).toThrow(/no usable log position/);
  });

  it('resumes from the start for 0 and from exactly the named record otherwise', () => {
    expect(readPositionOf(0)).toBe(START);
    expect(readPositionOf(4242)).toEqual({ commit: 4242n, prepare: 4242n });
  });
});

describe('EventStoreDB errors', () => {
  it('turns an unreachable server into EventStoreUnavailable, whichever form the client reports it in', () => {
    const plain = Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14 });
    expect(translateEsdbError(plain)).toBeInstanceOf(EventStoreUnavailable);
    expect(translateEsdbError(new UnavailableError())).toBeInstanceOf(EventStoreUnavailable);
  });

  it('turns a call the server cancelled into EventStoreUnavailable, answered 503 rather than 500', () => {
    expect(translateEsdbError(new CancelledError(undefined, '1 CANCELLED: Call cancelled'))).toBeInstanceOf(EventStoreUnavailable);
  });

  it('leaves other errors as they are', () => {
    const conflict = new WrongExpectedVersionError(undefined, { streamName: 's', expected: 0n, current: 1n });
    expect(translateEsdbError(conflict)).toBe(conflict);
    const bug = new TypeError('bad');
    expect(translateEsdbError(bug)).toBe(bug);
  });
});

describe('reading a subscription until aborted', () => {
  const collect = async (source: PassThrough, signal?: AbortSignal) => {
    const outcome: { value: SourceOutcome } = { value: 'ended' };
    const items: unknown[] = [];
    for await (const item of readUntilAborted(source, signal, outcome)) items.push(item);
    return { items, outcome: outcome.value };
  };

  it('yields every item in order and reports the end of the source', async () => {
    const source = new PassThrough({ objectMode: true });
    const reading = collect(source);
    for (let n = 0; n < 600; n++) source.write({ n });
    source.end();
    const { items, outcome } = await reading;
    expect(items).toEqual(Array.from({ length: 600 }, (_, n) => ({ n })));
    expect(outcome).toBe('ended');
  });

  it('throws the error the source fails with', async () => {
    const source = new PassThrough({ objectMode: true });
    const reading = collect(source);
    source.write({ n: 1 });
    source.destroy(new Error('connection lost'));
    await expect(reading).rejects.toThrow('connection lost');
  });

  it('ends at once when aborted while nothing is coming, and leaves no listener behind', async () => {
    const source = new PassThrough({ objectMode: true });
    const controller = new AbortController();
    const reading = collect(source, controller.signal);
    source.write({ n: 1 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    source.write({ n: 2 });
    const { items, outcome } = await reading;
    expect(items).toEqual([{ n: 1 }]);
    expect(outcome).toBe('aborted');
    expect(source.listenerCount('data') + source.listenerCount('error') + source.listenerCount('end')).toBe(0);
  });
});

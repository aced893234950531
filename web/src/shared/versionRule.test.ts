import { describe, expect, it } from 'vitest';
import { isNewer, laterStreamId, newerOf, upsertNewer } from './versionRule';
import { RealtimeClient } from './realtime';

describe('the version rule', () => {
  it('applies only a strictly newer version; older or equal ones are ignored', () => {
    expect(isNewer({ version: 5 }, { version: 6 })).toBe(true);
    expect(isNewer({ version: 5 }, { version: 5 })).toBe(false);
    expect(isNewer({ version: 5 }, { version: 4 })).toBe(false);
    expect(isNewer(null, { version: 1 })).toBe(true);
  });

  it('keeps the held document on a replayed or out-of-order message', () => {
    const held = { id: 'a', version: 9, status: 'approved' };
    expect(newerOf(held, { id: 'a', version: 7, status: 'pending' })).toBe(held);
    expect(newerOf(held, { id: 'a', version: 9, status: 'pending' })).toBe(held);
    expect(newerOf(held, { id: 'a', version: 10, status: 'active' }).status).toBe('active');
  });

  it('updates a list item only when newer, and adds unknown items in front', () => {
    const list = [
      { id: 'a', version: 3 },
      { id: 'b', version: 4 },
    ];
    expect(upsertNewer(list, { id: 'b', version: 2 })).toBe(list);
    expect(upsertNewer(list, { id: 'b', version: 5 })).toEqual([
      { id: 'a', version: 3 },
      { id: 'b', version: 5 },
    ]);
    expect(upsertNewer(list, { id: 'c', version: 1 })[0]).toEqual({ id: 'c', version: 1 });
  });

  it('orders stream ids numerically, not as text', () => {
    expect(laterStreamId('1700000000000-9', '1700000000000-10')).toBe('1700000000000-10');
    expect(laterStreamId('1700000000001-0', '1700000000000-99')).toBe('1700000000001-0');
    expect(laterStreamId(null, '5-0')).toBe('5-0');
  });
});

describe('the realtime client', () => {
  it('remembers the greatest stream id it received, to resume from it after a reconnect', () => {
    const client = new RealtimeClient();
    const seen: number[] = [];
    client.subscribe('loan.updated', (message) => seen.push(message.version));
    client.receive('loan.updated', { version: 2, streamId: '100-1', doc: {} });
    client.receive('loan.updated', { version: 1, streamId: '99-0', doc: {} });
    expect(client.lastStreamId).toBe('100-1');
    expect(seen).toEqual([2, 1]);
  });
});

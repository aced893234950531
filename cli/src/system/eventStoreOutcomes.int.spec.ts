import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EsdbEventStore } from '../../../eventstore/src/esdb/esdbEventStore.js';
import { FakeEsdbClient } from '../../../eventstore/src/esdb/testing/fakeEsdbClient.js';
import { superadminToken } from '../testing/admins.js';
import { registerBorrower } from '../testing/borrowers.js';
import { startTestSystem, type TestSystem } from '../testing/testSystem.js';

/**
 * What the API answers for the EventStoreDB adapter's failures: the whole system (API,
 * projections, workers, real Redis, real HTTP) over the adapter, whose client is a model of the
 * server's answers (testing/fakeEsdbClient.ts) since no EventStoreDB runs here.
 */
let system: TestSystem;
let client: FakeEsdbClient;
beforeAll(async () => {
  client = new FakeEsdbClient();
  // The store's own ping timeout is longer than /api/ready's deadline (1.5 s): the route must cancel what it abandons.
  const store = EsdbEventStore.over(client, { readIdleTimeoutMs: 1000, appendTimeoutMs: 200, pingTimeoutMs: 10_000, subscribeTimeoutMs: 2000 });
  system = await startTestSystem({ store });
});
afterAll(() => system?.stop());

describe('the API over EventStoreDB', () => {
  it('answers 400 for an events page from a position the log never had, and pages from the positions it answered', async () => {
    const token = await superadminToken(system);
    const made = await system.request('GET', '/api/admin/events?from=12345', { token });
    expect(made.status).toBe(400);
    expect(made.body).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/^from is not a position of this event log/) });
    expect(made.body.details.fields.from).toBe(made.body.message);

    const first = await system.request('GET', '/api/admin/events?limit=1', { token });
    expect(first.status).toBe(200);
    const next = await system.request('GET', `/api/admin/events?from=${first.body.next}&limit=1`, { token });
    expect(next.status).toBe(200);
    expect(next.body.events[0].position).toBeGreaterThan(first.body.next);
  });

  it('answers 503 OUTCOME_UNKNOWN with Retry-After for a change EventStoreDB did not confirm, its events only ever sent under the same ids', async () => {
    const borrower = await registerBorrower(system, 'Unconfirmed Change');
    const sentBefore = client.appends.length;
    client.failNextAppends({ kind: 'silence', written: false }, { kind: 'silence', written: false });

    const res = await system.request('PUT', '/api/user/profile', { token: borrower.token, body: { address: '12 Mabini Street, Quezon City' } });

    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'OUTCOME_UNKNOWN', message: 'We could not confirm whether this went through. Please check in a moment before trying again.' });
    expect(res.headers.get('retry-after')).toBe('5');
    const sent = client.appends.slice(sentBefore);
    expect(sent).toHaveLength(2);
    expect(sent[1].ids).toEqual(sent[0].ids);
    expect(sent[0].stream).toBe(`member-${borrower.id}`);
  });

  it("keeps the unconfirmed answer for a creating request's Idempotency-Key: the same key never runs it again", async () => {
    const token = await superadminToken(system);
    const borrower = await registerBorrower(system, 'Adjusted Once');
    const key = `adjustment-${borrower.id}`;
    const send = () => system.request('POST', `/api/admin/users/${borrower.id}/balance-adjustments`, { token, headers: { 'Idempotency-Key': key }, body: { amount: 500, reason: 'Goodwill credit' } });
    client.failNextAppends({ kind: 'silence', written: false }, { kind: 'silence', written: false });

    const first = await send();
    expect(first.status).toBe(503);
    expect(first.body.code).toBe('OUTCOME_UNKNOWN');
    const sentAfterFirst = client.appends.length;

    const again = await send();
    expect(again.status).toBe(503);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(client.appends).toHaveLength(sentAfterFirst);
  });

  it("names the unit of /api/ready's projection lag: bytes of log on EventStoreDB", async () => {
    const res = await system.request('GET', '/api/ready');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ready', eventStoreKind: 'esdb', projectionLagUnit: 'bytes', projectionLag: expect.any(Number) });
  });

  it('gives up /api/ready on a stalled store within its deadline, and cancels the read it abandoned', async () => {
    client.stalled = true;
    try {
      const readsBefore = client.reads.length;
      const started = Date.now();
      const res = await system.request('GET', '/api/ready');
      expect(Date.now() - started).toBeLessThan(3000);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: 'unavailable', eventStore: 'unavailable', projectionLag: null });
      const abandoned = client.reads.slice(readsBefore);
      expect(abandoned).toHaveLength(1);
      expect(abandoned[0].cancelled).toBe(true);
    } finally {
      client.stalled = false;
    }
  });
});

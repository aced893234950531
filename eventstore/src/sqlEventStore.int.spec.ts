import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotentRetryMismatch } from './idempotentRetry.js';
import { PgliteEventStore } from './pgliteEventStore.js';
import { EventStoreUnavailable, type EventStore, type RecordedEvent } from './port.js';
import { PostgresEventStore } from './postgresEventStore.js';
import { appendChannelOf } from './sql/schemaNames.js';
import { DATABASE_URL, dropSchemas, postgresReachability, randomSchemaName } from './testing/adapterTargets.js';

const event = (data: Record<string, unknown> = {}) => ({ id: randomUUID(), type: 'Tested', data });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `subscription` has yielded an event of `stream`, failing after `timeoutMs`. */
async function firstEventOf(events: AsyncIterable<RecordedEvent>, stream: string, timeoutMs: number): Promise<RecordedEvent> {
  const timeout = sleep(timeoutMs).then(() => {
    throw new Error(`no event of ${stream} within ${timeoutMs} ms`);
  });
  const found = (async () => {
    for await (const recorded of events) if (recorded.stream === stream) return recorded;
    throw new Error('the subscription ended');
  })();
  return Promise.race([found, timeout]);
}

/** Behaviour the SQL adapters promise beyond the port: a dense log without gaps, and unique event ids. */
function describeSqlLog(name: string, open: () => Promise<EventStore>) {
  describe(`${name} log`, () => {
    let store: EventStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(() => store?.close());

    it('never shows a reader a gap in positions while 4 writers append concurrently', async () => {
      const start = await store.headPosition();
      let writing = true;
      const writers = Promise.all(
        [0, 1, 2, 3].map(async (writer) => {
          const stream = `writer-${writer}-${randomUUID()}`;
          for (let n = 0; n < 100; n++) await store.append(stream, [event({ n }), event({ n })], { expectedRevision: n === 0 ? 'no_stream' : 2 * n - 1 });
        }),
      ).finally(() => {
        writing = false;
      });
      let last = start;
      let reads = 0;
      const readNext = async () => {
        const page = await store.readAll({ from: last, limit: 50 });
        page.forEach((recorded, i) => expect(recorded.position, `read ${reads} at index ${i}`).toBe(last + 1 + i));
        if (page.length > 0) last = page[page.length - 1].position;
        reads++;
        return page.length;
      };
      while (writing) await readNext();
      await writers;
      while ((await readNext()) > 0);
      expect(last).toBe(start + 800);
      expect(reads).toBeGreaterThan(1);
    });

    it('refuses an event id already stored in another stream, and writes nothing', async () => {
      const shared = event();
      const [first, second] = [`member-${randomUUID()}`, `member-${randomUUID()}`];
      await store.append(first, [shared], { expectedRevision: 'no_stream' });
      await expect(store.append(second, [shared], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(IdempotentRetryMismatch);
      expect(await store.readStream(second)).toEqual([]);
    });

    it('answers EventStoreUnavailable once closed, and ends live subscriptions cleanly', async () => {
      const closing = await open();
      const subscription = (async () => {
        const seen: RecordedEvent[] = [];
        for await (const recorded of closing.subscribeAll({ from: await closing.headPosition() })) seen.push(recorded);
        return seen;
      })();
      await sleep(100);
      await closing.close();
      await expect(subscription).resolves.toEqual([]);
      await expect(closing.readAll()).rejects.toBeInstanceOf(EventStoreUnavailable);
    });
  });
}

describeSqlLog('PGlite', () => PgliteEventStore.open('memory'));

describe('PGlite data directory', () => {
  it('keeps the log across closing and reopening the directory', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'honeylend-eventstore-'));
    try {
      const stream = `member-${randomUUID()}`;
      const first = await PgliteEventStore.open(directory);
      const appended = await first.append(stream, [event({ kept: true })], { expectedRevision: 'no_stream' });
      const storeId = await first.storeId();
      await first.close();
      const reopened = await PgliteEventStore.open(directory);
      try {
        expect((await reopened.readStream(stream)).map((recorded) => recorded.data)).toEqual([{ kept: true }]);
        expect(await reopened.headPosition()).toBe(appended.position);
        expect(await reopened.storeId()).toBe(storeId);
      } finally {
        await reopened.close();
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe('PostgreSQL unreachable', () => {
  it('reports a server that does not answer as EventStoreUnavailable', async () => {
    await expect(PostgresEventStore.open('postgres://postgres@127.0.0.1:1/test', { connectTimeoutMs: 2000 })).rejects.toBeInstanceOf(EventStoreUnavailable);
  });
});

const postgres = await postgresReachability();
if (!postgres.reachable) {
  describe('PostgreSQL log', () => it.skip(`PostgreSQL tests skipped: ${postgres.reason}`, () => undefined));
} else {
  const schemas: string[] = [];
  const newSchema = (purpose: string) => {
    const schema = randomSchemaName(purpose);
    schemas.push(schema);
    return schema;
  };
  afterAll(() => dropSchemas(DATABASE_URL, schemas));

  describeSqlLog('PostgreSQL', () => PostgresEventStore.open(DATABASE_URL, { schema: newSchema('log') }));

  describe('PostgreSQL across processes', () => {
    it('lets several stores create the same new schema at the same moment, with one store id', async () => {
      const schema = newSchema('race');
      const stores = await Promise.all(Array.from({ length: 4 }, () => PostgresEventStore.open(DATABASE_URL, { schema })));
      try {
        await stores[0].append(`member-${randomUUID()}`, [event()], { expectedRevision: 'no_stream' });
        for (const store of stores) expect(await store.headPosition()).toBe(1);
        expect(new Set(await Promise.all(stores.map((store) => store.storeId()))).size).toBe(1);
      } finally {
        await Promise.all(stores.map((store) => store.close()));
      }
    });

    it('keeps schemas apart: each is its own log', async () => {
      const [a, b] = await Promise.all([PostgresEventStore.open(DATABASE_URL, { schema: newSchema('a') }), PostgresEventStore.open(DATABASE_URL, { schema: newSchema('b') })]);
      try {
        await a.append(`member-${randomUUID()}`, [event()], { expectedRevision: 'no_stream' });
        expect(await a.headPosition()).toBe(1);
        expect(await b.headPosition()).toBe(0);
        expect(await a.storeId()).not.toBe(await b.storeId());
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    it('wakes a subscriber when another store (another process) appends, well before the safety poll', async () => {
      const schema = newSchema('notify');
      const [reader, writer] = await Promise.all([PostgresEventStore.open(DATABASE_URL, { schema }), PostgresEventStore.open(DATABASE_URL, { schema })]);
      const controller = new AbortController();
      try {
        const stream = `member-${randomUUID()}`;
        const delivered = firstEventOf(reader.subscribeAll({ signal: controller.signal }), stream, 3000);
        await sleep(300);
        const appending = Date.now();
        await writer.append(stream, [event()], { expectedRevision: 'no_stream' });
        await delivered;
        expect(Date.now() - appending).toBeLessThan(1000);
      } finally {
        controller.abort();
        await Promise.all([reader.close(), writer.close()]);
      }
    });

    it('re-establishes the LISTEN connection after it is killed, and is woken again', async () => {
      const schema = newSchema('relisten');
      const [reader, writer] = await Promise.all([PostgresEventStore.open(DATABASE_URL, { schema }), PostgresEventStore.open(DATABASE_URL, { schema })]);
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      const controller = new AbortController();
      const listenerPid = async () => {
        const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE query = $1', [`LISTEN "${appendChannelOf(schema)}"`]);
        return rows[0]?.pid;
      };
      const waitForListener = async (other?: number) => {
        for (let attempt = 0; attempt < 100; attempt++) {
          const pid = await listenerPid();
          if (pid !== undefined && pid !== other) return pid;
          await sleep(50);
        }
        throw new Error('no LISTEN connection appeared');
      };
      try {
        const events = reader.subscribeAll({ signal: controller.signal })[Symbol.asyncIterator]();
        const firstStream = `member-${randomUUID()}`;
        const first = events.next();
        const killed = await waitForListener();
        await admin.query('SELECT pg_terminate_backend($1)', [killed]);
        await waitForListener(killed);
        await sleep(200);

        const appending = Date.now();
        await writer.append(firstStream, [event()], { expectedRevision: 'no_stream' });
        expect((await first).value?.stream).toBe(firstStream);
        expect(Date.now() - appending).toBeLessThan(1000);
      } finally {
        controller.abort();
        await admin.end();
        await Promise.all([reader.close(), writer.close()]);
      }
    });
  });
}

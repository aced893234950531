import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openEventStore } from './openEventStore.js';
import { EventStoreUnavailable } from './port.js';
import { DATABASE_URL, dropSchemas, postgresReachability, randomSchemaName } from './testing/adapterTargets.js';

describe('openEventStore', () => {
  it('opens embedded PGlite for pglite:memory', async () => {
    const store = await openEventStore('pglite:memory');
    try {
      expect(store.kind).toBe('pglite');
      await expect(store.ping()).resolves.toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('refuses an unknown scheme, naming the supported ones without repeating the URL', async () => {
    const attempt = openEventStore('mysql://admin:s3cret@db:3306/events');
    await expect(attempt).rejects.toThrow(/unsupported event store URL scheme mysql:.*pglite:.*postgres:\/\/.*esdb:\/\//);
    await expect(attempt).rejects.not.toThrow(/s3cret/);
  });

  it('reports an EventStoreDB that does not answer as EventStoreUnavailable', async () => {
    await expect(openEventStore('esdb://127.0.0.1:1?tls=false')).rejects.toBeInstanceOf(EventStoreUnavailable);
  });
});

const postgres = await postgresReachability();
if (!postgres.reachable) {
  describe('openEventStore with PostgreSQL', () => it.skip(`PostgreSQL tests skipped: ${postgres.reason}`, () => undefined));
} else {
  describe('openEventStore with PostgreSQL', () => {
    const schema = randomSchemaName('url');
    afterAll(() => dropSchemas(DATABASE_URL, [schema]));

    it('opens PostgreSQL for postgres:// and postgresql://, in the schema the URL names', async () => {
      const separator = DATABASE_URL.includes('?') ? '&' : '?';
      const viaPostgres = await openEventStore(`${DATABASE_URL}${separator}schema=${schema}`);
      const viaPostgresql = await openEventStore(`${DATABASE_URL.replace(/^postgres:/, 'postgresql:')}${separator}schema=${schema}`);
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      try {
        expect([viaPostgres.kind, viaPostgresql.kind]).toEqual(['postgres', 'postgres']);
        const { rows } = await admin.query('SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = $2', [schema, 'events']);
        expect(rows).toHaveLength(1);
      } finally {
        await admin.end();
        await Promise.all([viaPostgres.close(), viaPostgresql.close()]);
      }
    });
  });
}

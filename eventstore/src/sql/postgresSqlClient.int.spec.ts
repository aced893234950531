import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresSqlClient } from './postgresSqlClient.js';

const POSTGRES_URL = (process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test').replace(/\?.*$/, '');
const client = new PostgresSqlClient({ connectionString: POSTGRES_URL }, 'honeylend_client_test');
const admin = new pg.Client({ connectionString: POSTGRES_URL });

afterAll(async () => {
  await client.close();
  await admin.end().catch(() => undefined);
});

describe('the PostgreSQL client', () => {
  it('survives the server ending a connection a transaction holds between two statements: the transaction fails, the process goes on', async () => {
    await admin.connect();
    const outcome = client.transaction(async (tx) => {
      const [{ pid }] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      // What a PostgreSQL restart does to every session, while this one sits between statements.
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await sleep(300);
      return tx.query('SELECT 1');
    });
    await expect(outcome).rejects.toThrow();
    // The pool opens a fresh connection for the next caller.
    expect(await client.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('prepares a statement with parameters once per connection and runs it again by name, with the right answer each time', async () => {
    const single = new PostgresSqlClient({ connectionString: POSTGRES_URL }, 'honeylend_client_test_single', { poolSize: 1 });
    try {
      const text = 'SELECT $1::int + 1 AS next';
      for (const n of [1, 41, -7]) expect(await single.query<{ next: number }>(text, [n])).toEqual([{ next: n + 1 }]);
      // The same text inside a transaction on that one connection uses the statement already prepared.
      expect(await single.transaction((tx) => tx.query<{ next: number }>(text, [99]))).toEqual([{ next: 100 }]);
      const prepared = await single.query<{ name: string; statement: string }>("SELECT name, statement FROM pg_prepared_statements WHERE statement LIKE 'SELECT $1::int%'");
      expect(prepared).toHaveLength(1);
      expect(prepared[0].name).toMatch(/^hl_[0-9a-f]{24}$/);
      // A statement without parameters is sent as it is, not prepared.
      await single.query('SELECT 2 AS two');
      expect(await single.query<{ count: string }>("SELECT count(*) AS count FROM pg_prepared_statements WHERE statement = 'SELECT 2 AS two'")).toEqual([{ count: '0' }]);
    } finally {
      await single.close();
    }
  });
});

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
});

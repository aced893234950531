import { randomUUID } from 'node:crypto';
import type { SqlClient } from './sqlClient.js';
import { DDL_LOCK } from './schemaNames.js';

/*
 * The store's identity, kept in a one-row table beside the log: read models record it with their
 * checkpoint, because a position of one store means nothing in another (another schema, another
 * database, a log restored into an empty store). Its own table and migration, apart from the log's.
 */

export function storeIdentityTableOf(schema: string): string {
  return `"${schema}".store_identity`;
}

/** Creates the table and the store's id on first open; idempotent, and safe when several processes open the store at once. */
export async function createStoreIdentity(client: SqlClient, schema: string): Promise<void> {
  const table = storeIdentityTableOf(schema);
  await client.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1, $2)', DDL_LOCK);
    await tx.query(`
      CREATE TABLE IF NOT EXISTS ${table} (
        singleton  boolean     PRIMARY KEY DEFAULT true CHECK (singleton),
        store_id   uuid        NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await tx.query(`INSERT INTO ${table} (store_id) VALUES ($1) ON CONFLICT (singleton) DO NOTHING`, [randomUUID()]);
  });
}

export async function readStoreId(client: SqlClient, schema: string): Promise<string> {
  const [row] = await client.query<{ store_id: string }>(`SELECT store_id FROM ${storeIdentityTableOf(schema)}`);
  if (!row) throw new Error(`the event store in schema ${schema} has no store id (store_identity is empty)`);
  return row.store_id;
}

import { GENESIS_HASH, eventHash } from '../integrity/eventHash.js';
import type { SqlClient, SqlQueryable } from './sqlClient.js';
import { DDL_LOCK, appendLockOf } from './schemaNames.js';
import { toChainedEvent, toNumber, type ChainedEventRow } from './eventRows.js';

/** How far the chaining of an existing log has come, for a progress bar. */
export interface ChainMigrationProgress {
  chained: number;
  total: number;
}

const BACKFILL_BATCH = 5_000;

/** The trigger function's name in the log's schema. */
const REFUSE_FUNCTION = 'events_refuse_rewrite';

/**
 * The tamper-evidence part of the events table (design §10), kept apart from the table's own
 * DDL: the prev_hash and hash columns, and the triggers refusing UPDATE, DELETE and TRUNCATE.
 *
 * A log written before the chain existed gets it on its first open: every row is hashed in
 * position order and the columns become NOT NULL, in one transaction holding the append lock, so
 * no append can slip in between and a crash leaves the log as it was. Only then is the trigger
 * created (it would refuse the backfill). When everything is already in place, this reads the
 * catalog once and takes no lock.
 */
export async function ensureHashChain(client: SqlClient, schema: string, table: string, onProgress?: (progress: ChainMigrationProgress) => void): Promise<void> {
  if (await hashChainInPlace(client, schema)) return;
  await client.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1, $2)', DDL_LOCK);
    await tx.query('SELECT pg_advisory_xact_lock($1, $2)', appendLockOf(schema));
    if (await hashChainInPlace(tx, schema)) return;
    await tx.query(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS prev_hash bytea, ADD COLUMN IF NOT EXISTS hash bytea`);
    await backfill(tx, table, onProgress);
    await tx.query(`ALTER TABLE ${table} ALTER COLUMN prev_hash SET NOT NULL, ALTER COLUMN hash SET NOT NULL`);
    await tx.query(`
      CREATE OR REPLACE FUNCTION "${schema}".${REFUSE_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the event log is append-only: % on %.% is refused', TG_OP, TG_TABLE_SCHEMA, TG_TABLE_NAME
          USING ERRCODE = 'insufficient_privilege';
      END
      $$`);
    await tx.query(`DROP TRIGGER IF EXISTS events_append_only ON ${table}`);
    await tx.query(`DROP TRIGGER IF EXISTS events_no_truncate ON ${table}`);
    await tx.query(`CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION "${schema}".${REFUSE_FUNCTION}()`);
    await tx.query(`CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION "${schema}".${REFUSE_FUNCTION}()`);
  });
}

/** Both columns NOT NULL and both triggers present (enabled or not: disabling one is what verification catches). */
async function hashChainInPlace(db: SqlQueryable, schema: string): Promise<boolean> {
  const [row] = await db.query<{ columns: unknown; triggers: unknown }>(
    `SELECT
       (SELECT count(*) FROM information_schema.columns
         WHERE table_schema = $1 AND table_name = 'events' AND column_name IN ('prev_hash', 'hash') AND is_nullable = 'NO') AS columns,
       (SELECT count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = $1 AND c.relname = 'events' AND t.tgname IN ('events_append_only', 'events_no_truncate')) AS triggers`,
    [schema],
  );
  return Number(row?.columns) === 2 && Number(row?.triggers) === 2;
}

/** Hashes the rows without a hash, oldest first, each linked to the one before it. */
async function backfill(tx: SqlQueryable, table: string, onProgress?: (progress: ChainMigrationProgress) => void): Promise<void> {
  const [counts] = await tx.query<{ missing: unknown; first: unknown }>(`SELECT count(*) AS missing, min(position) AS first FROM ${table} WHERE hash IS NULL`);
  const total = Number(counts?.missing ?? 0);
  if (total === 0) return;
  const first = Number(counts.first);
  const [before] = await tx.query<{ hash: string | null }>(`SELECT encode(hash, 'hex') AS hash FROM ${table} WHERE position < $1 ORDER BY position DESC LIMIT 1`, [first]);
  let prevHash = before?.hash ?? GENESIS_HASH;
  let after = first - 1;
  let chained = 0;
  onProgress?.({ chained, total });
  for (;;) {
    const rows = await tx.query<ChainedEventRow>(
      `SELECT position, id, stream, revision, type, data, metadata, created_at, NULL AS prev_hash, NULL AS hash
         FROM ${table} WHERE position > $1 ORDER BY position LIMIT $2`,
      [after, BACKFILL_BATCH],
    );
    if (rows.length === 0) break;
    const links = rows.map((row) => {
      const event = toChainedEvent(row);
      const hash = eventHash(event.position, prevHash, event);
      const link = { position: event.position, prev_hash: prevHash, hash };
      prevHash = hash;
      return link;
    });
    await tx.query(
      `UPDATE ${table} AS e SET prev_hash = decode(l.prev_hash, 'hex'), hash = decode(l.hash, 'hex')
         FROM jsonb_to_recordset($1::jsonb) AS l(position bigint, prev_hash text, hash text)
        WHERE e.position = l.position`,
      [JSON.stringify(links)],
    );
    after = toNumber(rows[rows.length - 1].position);
    chained += rows.length;
    onProgress?.({ chained, total });
  }
}

import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { CHECKPOINT_EVENT_TYPE, CHECKPOINT_STREAM, signCheckpoint } from '../integrity/checkpoint.js';
import { GENESIS_HASH, eventHash } from '../integrity/eventHash.js';
import { PgliteEventStore } from '../pgliteEventStore.js';
import type { EventStore } from '../port.js';
import { PostgresEventStore } from '../postgresEventStore.js';
import { CHAINED_EVENT_COLUMNS, toChainedEvent, type ChainedEventRow } from '../sql/eventRows.js';
import type { ChainMigrationProgress } from '../sql/hashChainSchema.js';
import { DATABASE_URL, dropSchemas, randomSchemaName } from './adapterTargets.js';

/**
 * A SQL log as an attacker with database access sees it: the tests of tamper evidence change
 * stored rows the way only a superuser can (the append-only trigger disabled), or try the way the
 * application's own role would (the trigger in place).
 */
export interface TamperableLog {
  name: string;
  /** EVENTSTORE_URL for a `lending` process on this log (close the store first on PGlite). */
  url: string;
  open(options?: { onChainMigration?: (progress: ChainMigrationProgress) => void }): Promise<EventStore>;
  /**
   * Runs statements on the log's `events` table as a superuser, by default with the append-only
   * trigger disabled meanwhile; `events` names the table.
   */
  asSuperuser(statements: (run: Run) => Promise<void>, options?: { disableTrigger?: boolean }): Promise<void>;
  /** One statement through the application's own role, trigger in place; the error it fails with, or null. */
  asApplication(sql: string): Promise<Error | null>;
  dispose(): Promise<void>;
}

export type Run = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

const withTriggerDisabled = async (run: Run, statements: (run: Run) => Promise<void>, { disableTrigger = true }: { disableTrigger?: boolean } = {}) => {
  if (!disableTrigger) return statements(run);
  await run('ALTER TABLE events DISABLE TRIGGER events_append_only');
  try {
    await statements(run);
  } finally {
    await run('ALTER TABLE events ENABLE TRIGGER events_append_only');
  }
};

/** PGlite in a directory: only one client at a time, so the store must be closed while tampering. */
export async function pgliteTamperable(): Promise<TamperableLog> {
  const directory = await mkdtemp(join(tmpdir(), 'honeylend-tamper-'));
  const direct = async <T>(work: (db: PGlite) => Promise<T>): Promise<T> => {
    const db = await PGlite.create(directory);
    try {
      return await work(db);
    } finally {
      await db.close();
    }
  };
  return {
    name: 'PGlite',
    url: `pglite:${directory}`,
    open: (options) => PgliteEventStore.open(directory, options),
    asSuperuser: (statements, options) => direct((db) => withTriggerDisabled(async (sql, params) => (await db.query<Record<string, unknown>>(sql, params)).rows, statements, options)),
    asApplication: (sql) =>
      direct(async (db) =>
        db.exec(sql).then(
          () => null,
          (error: Error) => error,
        ),
      ),
    dispose: () => rm(directory, { recursive: true, force: true }),
  };
}

/** A schema of its own on the test PostgreSQL; `postgres` is the superuser there, and the application's role too. */
export async function postgresTamperable(url = DATABASE_URL): Promise<TamperableLog> {
  const schema = randomSchemaName('tamper');
  const direct = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`SET search_path TO "${schema}"`);
      return await work(client);
    } finally {
      await client.end();
    }
  };
  return {
    name: 'PostgreSQL',
    url: `${url}${url.includes('?') ? '&' : '?'}schema=${schema}`,
    open: (options) => PostgresEventStore.open(url, { schema, ...options }),
    asSuperuser: (statements, options) => direct((client) => withTriggerDisabled(async (sql, params) => (await client.query(sql, params)).rows as Record<string, unknown>[], statements, options)),
    asApplication: (sql) =>
      direct(async (client) =>
        client.query(sql).then(
          () => null,
          (error: Error) => error,
        ),
      ),
    dispose: () => dropSchemas(url, [schema]),
  };
}

// ── What an attacker does ─────────────────────────────────────────────────────────────────

/** Changes one character of the first string value in the event's data (one byte of ASCII text). */
export async function changeOneByte(log: TamperableLog, position: number): Promise<void> {
  await log.asSuperuser(async (run) => {
    const [row] = await run('SELECT data::text AS text FROM events WHERE position = $1', [position]);
    const text = String(row.text);
    const at = text.indexOf('": "') + 4;
    if (at < 4) throw new Error(`event ${position} has no string value to change`);
    const changed = text.slice(0, at) + (text[at] === 'x' ? 'y' : 'x') + text.slice(at + 1);
    await run('UPDATE events SET data = $1::jsonb WHERE position = $2', [changed, position]);
  });
}

export async function deleteEvent(log: TamperableLog, position: number): Promise<void> {
  await log.asSuperuser(async (run) => {
    await run('DELETE FROM events WHERE position = $1', [position]);
  });
}

/** Two rows trade places in the log, each keeping its own content and links. */
export async function swapEvents(log: TamperableLog, first: number, second: number): Promise<void> {
  await log.asSuperuser(async (run) => {
    await run('UPDATE events SET position = -1 WHERE position = $1', [first]);
    await run('UPDATE events SET position = $1 WHERE position = $2', [first, second]);
    await run('UPDATE events SET position = $1 WHERE position = -1', [second]);
  });
}

/**
 * The strongest attacker without the signing key: changes an event and recomputes every hash from
 * there on, so the chain holds together again. Only a signed checkpoint after it can tell.
 */
export async function rewriteAndRechain(log: TamperableLog, position: number): Promise<void> {
  await changeOneByte(log, position);
  await log.asSuperuser(async (run) => {
    const rows = (await run(`SELECT ${CHAINED_EVENT_COLUMNS} FROM events WHERE position >= $1 ORDER BY position`, [position - 1])) as ChainedEventRow[];
    let prevHash = rows[0] && Number(rows[0].position) === position - 1 ? rows.shift()!.hash! : GENESIS_HASH;
    for (const row of rows) {
      const event = toChainedEvent(row);
      const hash = eventHash(event.position, prevHash, event);
      await run(`UPDATE events SET prev_hash = decode($1, 'hex'), hash = decode($2, 'hex') WHERE position = $3`, [prevHash, hash, event.position]);
      prevHash = hash;
    }
  });
}

/** A checkpoint made with a key nobody trusts, appended as the application could append it. */
export async function appendForgedCheckpoint(store: EventStore, position: number, hash: string): Promise<void> {
  const { privateKey } = generateKeyPairSync('ed25519');
  const forged = signCheckpoint(privateKey, { position, hash, time: new Date().toISOString() });
  await store.append(CHECKPOINT_STREAM, [{ id: randomUUID(), type: CHECKPOINT_EVENT_TYPE, data: { ...forged } }], { expectedRevision: 'any' });
}

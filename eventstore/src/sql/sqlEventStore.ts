import { validateAppend } from '../appendRequest.js';
import { originalResultOfRetry, type StoredCopy } from '../idempotentRetry.js';
import {
  START,
  WrongExpectedVersion,
  type AppendOptions,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type RecordedEvent,
  type SubscribeAllOptions,
} from '../port.js';
import type { SqlClient, SqlQueryable } from './sqlClient.js';
import { DDL_LOCK, appendLockOf, assertSchemaName, eventsTableOf } from './schemaNames.js';
import { WakeLatch } from './wakeLatch.js';

const DEFAULT_READ_LIMIT = 1000;
const SUBSCRIPTION_BATCH = 500;
/** Wake-ups come from appends; this only bounds the delay if one was ever lost (e.g. a dropped LISTEN connection). */
const SAFETY_POLL_MS = 5000;

interface EventRow {
  [column: string]: unknown;
  position: unknown;
  id: string;
  stream: string;
  revision: unknown;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata | null;
  created_at: unknown;
}

/** pg returns bigint columns as strings (PGlite as numbers); positions and revisions stay far below 2^53. */
function toNumber(value: unknown): number {
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(number)) throw new RangeError(`expected an integer column value, got ${String(value)}`);
  return number;
}

function toIsoString(value: unknown): string {
  return (value instanceof Date ? value : new Date(String(value))).toISOString();
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    stream: row.stream,
    type: row.type,
    data: row.data,
    metadata: row.metadata ?? {},
    revision: toNumber(row.revision),
    position: toNumber(row.position),
    createdAt: toIsoString(row.created_at),
  };
}

function assertPosition(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`${name} must be a non-negative integer, got ${String(value)}`);
}

function checkExpectedRevision(stream: string, expected: ExpectedRevision, current: number | null): void {
  const matches = expected === 'any' || (expected === 'no_stream' ? current === null : current === expected);
  if (!matches) throw new WrongExpectedVersion(stream, expected, current ?? 'no_stream');
}

/**
 * The event store on PostgreSQL's SQL, shared by the PostgreSQL and the embedded PGlite adapters.
 * One `events` table per schema holds the global log.
 */
export class SqlEventStore implements EventStore {
  private readonly table: string;
  private closed = false;
  private readonly closing = new Set<() => void>();

  protected constructor(
    readonly kind: string,
    private readonly client: SqlClient,
    private readonly schema: string,
  ) {
    assertSchemaName(schema);
    this.table = eventsTableOf(schema);
  }

  /**
   * Idempotent, and safe when several processes open the same database at once: CREATE … IF NOT
   * EXISTS alone can still fail on a concurrent create, so the DDL runs under an advisory lock.
   */
  protected async createSchema(): Promise<void> {
    await this.client.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1, $2)', DDL_LOCK);
      await tx.query(`CREATE SCHEMA IF NOT EXISTS "${this.schema}"`);
      await tx.query(`
        CREATE TABLE IF NOT EXISTS ${this.table} (
          position   bigint      PRIMARY KEY,
          id         uuid        NOT NULL UNIQUE,
          stream     text        NOT NULL,
          revision   bigint      NOT NULL,
          type       text        NOT NULL,
          data       jsonb       NOT NULL,
          metadata   jsonb       NOT NULL DEFAULT '{}',
          created_at timestamptz NOT NULL DEFAULT now(),
          UNIQUE (stream, revision)
        )`);
    });
  }

  /**
   * Appends are serialized by a transaction-scoped advisory lock, and each takes its positions as
   * max(position)+1… while holding it. That is why a reader never sees a gap: the lock is released
   * only after the holder's commit has become visible, and the next appender reads max(position)
   * after acquiring it (READ COMMITTED takes a fresh snapshot per statement), so transactions commit
   * in position order. Any snapshot that shows position N+1 was taken after N+1 committed, hence
   * after N committed: a reader sees a prefix of the log, never N+1 without N.
   */
  async append(stream: string, events: NewEvent[], { expectedRevision }: AppendOptions): Promise<AppendResult> {
    const validated = validateAppend(stream, events, expectedRevision);
    const ids = validated.map((event) => event.id);
    return this.client.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1, $2)', appendLockOf(this.schema));
      const retried = originalResultOfRetry(stream, ids, await this.storedCopies(tx, ids));
      if (retried) return retried;

      const [{ revision } = { revision: null }] = await tx.query<{ revision: unknown }>(
        `SELECT max(revision) AS revision FROM ${this.table} WHERE stream = $1`,
        [stream],
      );
      const currentRevision = revision === null ? null : toNumber(revision);
      checkExpectedRevision(stream, expectedRevision, currentRevision);

      const [{ head } = { head: 0 }] = await tx.query<{ head: unknown }>(`SELECT coalesce(max(position), 0) AS head FROM ${this.table}`);
      const headPosition = toNumber(head);
      const firstRevision = currentRevision === null ? 0 : currentRevision + 1;
      // One JSON parameter carries the whole batch, which both drivers pass the same way.
      const batch = validated.map((event, ordinal) => ({ ordinal, ...event }));
      await tx.query(
        `INSERT INTO ${this.table} (position, id, stream, revision, type, data, metadata)
         SELECT $1::bigint + 1 + e.ordinal, e.id, $2, $3::bigint + e.ordinal, e.type, e.data, e.metadata
         FROM jsonb_to_recordset($4::jsonb) AS e(ordinal bigint, id uuid, type text, data jsonb, metadata jsonb)
         ORDER BY e.ordinal`,
        [headPosition, stream, firstRevision, JSON.stringify(batch)],
      );
      await tx.announceAppend();
      return { nextRevision: firstRevision + validated.length - 1, position: headPosition + validated.length };
    });
  }

  private async storedCopies(tx: SqlQueryable, ids: readonly string[]): Promise<StoredCopy[]> {
    const rows = await tx.query<{ id: string; stream: string; revision: unknown; position: unknown }>(
      `SELECT id, stream, revision, position FROM ${this.table}
       WHERE id IN (SELECT value::uuid FROM jsonb_array_elements_text($1::jsonb))`,
      [JSON.stringify(ids)],
    );
    return rows.map((row) => ({ id: row.id, stream: row.stream, revision: toNumber(row.revision), position: toNumber(row.position) }));
  }

  async readStream(stream: string): Promise<RecordedEvent[]> {
    const rows = await this.client.query<EventRow>(`SELECT * FROM ${this.table} WHERE stream = $1 ORDER BY revision`, [stream]);
    return rows.map(toRecordedEvent);
  }

  async readAll({ from = START, limit = DEFAULT_READ_LIMIT }: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    assertPosition('from', from);
    if (!Number.isSafeInteger(limit) || limit < 1) throw new TypeError(`limit must be a positive integer, got ${String(limit)}`);
    const rows = await this.client.query<EventRow>(`SELECT * FROM ${this.table} WHERE position > $1 ORDER BY position LIMIT $2`, [from, limit]);
    return rows.map(toRecordedEvent);
  }

  async *subscribeAll({ from = START, signal }: SubscribeAllOptions = {}): AsyncGenerator<RecordedEvent> {
    assertPosition('from', from);
    const latch = new WakeLatch();
    const wake = () => latch.wake();
    // Listening starts before the first read, so an append committed while reading is not missed.
    const stopListening = this.client.onAppend(wake);
    signal?.addEventListener('abort', wake);
    this.closing.add(wake);
    try {
      let position = from;
      const stopped = () => signal?.aborted === true || this.closed;
      while (!stopped()) {
        let batch: RecordedEvent[];
        try {
          batch = await this.readAll({ from: position, limit: SUBSCRIPTION_BATCH });
        } catch (error) {
          if (this.closed) return;
          throw error;
        }
        for (const event of batch) {
          if (stopped()) return;
          yield event;
          position = event.position;
        }
        if (batch.length < SUBSCRIPTION_BATCH && !stopped()) await latch.sleep(SAFETY_POLL_MS);
      }
    } finally {
      this.closing.delete(wake);
      signal?.removeEventListener('abort', wake);
      stopListening();
    }
  }

  async headPosition(): Promise<number> {
    const [{ head } = { head: 0 }] = await this.client.query<{ head: unknown }>(`SELECT coalesce(max(position), 0) AS head FROM ${this.table}`);
    return toNumber(head);
  }

  async ping(): Promise<void> {
    await this.client.query('SELECT 1');
  }

  /** Live subscriptions end (their loops finish) rather than fail on a closed connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const wake of this.closing) wake();
    await this.client.close();
  }
}

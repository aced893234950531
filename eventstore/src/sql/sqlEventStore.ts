import { validateAppend, type ValidatedEvent } from '../appendRequest.js';
import { originalResultOfRetry, type StoredCopy } from '../idempotentRetry.js';
import {
  EventStoreUnavailable,
  START,
  WrongExpectedVersion,
  type AppendOptions,
  type AppendResult,
  type ChainedEvent,
  type EventStore,
  type ExpectedRevision,
  type IntegrityGuarantees,
  type NewEvent,
  type ReadAllOptions,
  type RecordedEvent,
  type StreamEvents,
  type SubscribeAllOptions,
  streamEvents,
} from '../port.js';
import { GENESIS_HASH, eventHash } from '../integrity/eventHash.js';
import type { SqlClient, SqlTransaction } from './sqlClient.js';
import { DDL_LOCK, appendLockOf, assertSchemaName, eventsTableOf } from './schemaNames.js';
import { createStoreIdentity, readStoreId } from './storeIdentity.js';
import { WakeLatch } from './wakeLatch.js';
import { CHAINED_EVENT_COLUMNS, EVENT_COLUMNS, toChainedEvent, toIsoString, toNumber, toRecordedEvent, type ChainedEventRow, type EventRow } from './eventRows.js';
import { ensureHashChain, type ChainMigrationProgress } from './hashChainSchema.js';

const DEFAULT_READ_LIMIT = 1000;
/** Bounds on one group commit, so one transaction's JSON parameter and lock hold stay small. */
const MAX_GROUP_APPENDS = 256;
const MAX_GROUP_EVENTS = 2_000;
const SUBSCRIPTION_BATCH = 500;
/** Wake-ups come from appends; this only bounds the delay if one was ever lost (e.g. a dropped LISTEN connection). */
const SAFETY_POLL_MS = 5000;

interface QueuedAppend {
  stream: string;
  events: ValidatedEvent[];
  expectedRevision: ExpectedRevision;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

interface StoredCopyRow {
  id: string;
  stream: string;
  revision: unknown;
  position: unknown;
}

/** jsonb arrives parsed from pg and PGlite alike; a driver configured to hand back text is parsed here. */
function parseJsonColumn(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

type AppendOutcome = { ok: true; result: AppendResult } | { ok: false; error: unknown };

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
  readonly integrity: IntegrityGuarantees;
  /** Each append takes the next whole numbers, so two positions differ by the number of events between them. */
  readonly positionUnit = 'events';
  private readonly table: string;
  private closed = false;
  /** Appends waiting for the writer, in arrival order, and whether the writer is running. */
  private readonly queued: QueuedAppend[] = [];
  private writing = false;
  private readonly closing = new Set<() => void>();

  /**
   * `chained` false leaves the hash chain and the append-only trigger out entirely: only the
   * benchmark opens a log so, to measure in the same run what the chain costs an append.
   */
  protected constructor(
    readonly kind: string,
    private readonly client: SqlClient,
    private readonly schema: string,
    private readonly chained = true,
  ) {
    assertSchemaName(schema);
    this.table = eventsTableOf(schema);
    this.integrity = chained ? { appendOnly: 'trigger', hashChain: 'stored', densePositions: true } : { appendOnly: 'none', hashChain: 'none', densePositions: true };
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

  /** The hash chain's columns and the append-only triggers; chains a log written before them (see hashChainSchema.ts). */
  protected async ensureHashChain(onProgress?: (progress: ChainMigrationProgress) => void): Promise<void> {
    await ensureHashChain(this.client, this.schema, this.table, onProgress);
  }

  /**
   * Appends are serialized by a transaction-scoped advisory lock, and each takes its positions as
   * max(position)+1… while holding it. That is why a reader never sees a gap: the lock is released
   * only after the holder's commit has become visible, and the next appender reads max(position)
   * after acquiring it (READ COMMITTED takes a fresh snapshot per statement), so transactions commit
   * in position order. Any snapshot that shows position N+1 was taken after N+1 committed, hence
   * after N committed: a reader sees a prefix of the log, never N+1 without N.
   *
   * Because the lock makes appends one-at-a-time anyway, a process gains nothing from sending them
   * to the database concurrently: each would pay the lock wait, several round trips and its own
   * WAL flush in turn (about 200 appends a second on 2 cores). Instead every append joins a queue;
   * one writer takes whatever has queued while the previous transaction ran and writes it as one
   * transaction (group commit): one lock, one read of revisions, one INSERT, one flush. Each append
   * still succeeds or fails on its own, exactly as if it had run alone in queue order.
   *
   * Under the same lock each event gets its link in the hash chain (design §10): the head's hash
   * is read with the revisions, and each new row's hash covers its position, that previous hash
   * and its content, with the time it is recorded at fixed here (never before the head's, so the
   * log's times never go backwards and "the last position at time T" is well defined).
   */
  async append(stream: string, events: NewEvent[], { expectedRevision }: AppendOptions): Promise<AppendResult> {
    const validated = validateAppend(stream, events, expectedRevision);
    return new Promise<AppendResult>((resolve, reject) => {
      this.queued.push({ stream, events: validated, expectedRevision, resolve, reject });
      if (!this.writing) void this.writeQueued();
    });
  }

  private async writeQueued(): Promise<void> {
    this.writing = true;
    try {
      while (this.queued.length > 0) await this.writeGroup(this.takeGroup());
    } finally {
      this.writing = false;
    }
  }

  /**
   * The next appends to write together, in queue order. An append that re-sends an id another
   * append of this group sends waits for the next group: the first one's outcome decides whether
   * the second is an idempotent retry, a mismatch, or a conflict.
   */
  private takeGroup(): QueuedAppend[] {
    const group: QueuedAppend[] = [];
    const deferred: QueuedAppend[] = [];
    const ids = new Set<string>();
    let eventCount = 0;
    while (this.queued.length > 0 && group.length < MAX_GROUP_APPENDS && eventCount < MAX_GROUP_EVENTS) {
      const next = this.queued.shift()!;
      if (next.events.some((event) => ids.has(event.id))) {
        deferred.push(next);
        continue;
      }
      for (const event of next.events) ids.add(event.id);
      eventCount += next.events.length;
      group.push(next);
    }
    this.queued.unshift(...deferred);
    return group;
  }

  private async writeGroup(group: QueuedAppend[]): Promise<void> {
    let outcomes: AppendOutcome[];
    try {
      outcomes = await this.client.transaction((tx) => this.appendGroup(tx, group), { lock: appendLockOf(this.schema) });
    } catch (error) {
      // The transaction failed as a whole. When the store is unreachable every append fails alike;
      // anything else may be one append's fault, so each is written on its own to fail only that one.
      if (group.length === 1 || error instanceof EventStoreUnavailable) {
        for (const append of group) append.reject(error);
      } else {
        for (const append of group) await this.writeGroup([append]);
      }
      return;
    }
    outcomes.forEach((outcome, i) => (outcome.ok ? group[i].resolve(outcome.result) : group[i].reject(outcome.error)));
  }

  /** Runs under the append lock (taken with BEGIN), so this statement's snapshot sees every earlier append. */
  private async appendGroup(tx: SqlTransaction, group: QueuedAppend[]): Promise<AppendOutcome[]> {
    const streamNames = [...new Set(group.map((append) => append.stream))];
    // One statement reads all the group needs: copies of any re-sent ids (idempotent retries), each
    // stream's revision (one index lookup per stream, a correlated max, whatever the planner thinks
    // of the list's size), and the head of the log.
    const [state] = await tx.query<{ copies: StoredCopyRow[] | string; revisions: Record<string, unknown> | string; head: unknown; now: unknown }>(
      `SELECT
         (SELECT coalesce(jsonb_agg(jsonb_build_object('id', id, 'stream', stream, 'revision', revision, 'position', position)), '[]'::jsonb)
            FROM ${this.table} WHERE id IN (SELECT value::uuid FROM jsonb_array_elements_text($1::jsonb))) AS copies,
         (SELECT coalesce(jsonb_object_agg(s.stream, (SELECT max(revision) FROM ${this.table} WHERE stream = s.stream)), '{}'::jsonb)
            FROM jsonb_array_elements_text($2::jsonb) AS s(stream)) AS revisions,
         (SELECT jsonb_build_object('position', position, 'hash', ${this.chained ? "encode(hash, 'hex')" : 'NULL'}, 'createdAt', created_at)
            FROM ${this.table} ORDER BY position DESC LIMIT 1) AS head,
         clock_timestamp() AS now`,
      [JSON.stringify(group.flatMap((append) => append.events.map((event) => event.id))), JSON.stringify(streamNames)],
    );
    const copyRows = parseJsonColumn(state.copies) as StoredCopyRow[];
    const copies = new Map(copyRows.map((row) => [row.id, { id: row.id, stream: row.stream, revision: toNumber(row.revision), position: toNumber(row.position) } satisfies StoredCopy]));
    const revisionsByStream = parseJsonColumn(state.revisions) as Record<string, unknown>;
    const revisions = new Map<string, number | null>(
      streamNames.map((name) => {
        const revision = revisionsByStream[name];
        return [name, revision === null || revision === undefined ? null : toNumber(revision)];
      }),
    );
    const head = parseJsonColumn(state.head) as { position: unknown; hash: string; createdAt: string } | null;
    let position = head ? toNumber(head.position) : 0;
    let prevHash: string = head?.hash ?? GENESIS_HASH;
    const now = toIsoString(state.now);
    const createdAt = head && toIsoString(head.createdAt) > now ? toIsoString(head.createdAt) : now;

    const rows: Array<ValidatedEvent & { position: number; stream: string; revision: number; created_at: string; prev_hash: string; hash: string }> = [];
    const outcomes = group.map((append): AppendOutcome => {
      try {
        const stored = append.events.flatMap((event) => copies.get(event.id) ?? []);
        const retried = originalResultOfRetry(
          append.stream,
          append.events.map((event) => event.id),
          stored,
        );
        if (retried) return { ok: true, result: retried };
        const currentRevision = revisions.get(append.stream) ?? null;
        checkExpectedRevision(append.stream, append.expectedRevision, currentRevision);
        const firstRevision = currentRevision === null ? 0 : currentRevision + 1;
        // Hashed before anything is kept, so an event the chain cannot hold fails only its own append.
        let link = prevHash;
        const appended = append.events.map((event, ordinal) => {
          // A restored event keeps the time it first happened (lending restore); any other is stamped now.
          const at = event.createdAt === undefined ? createdAt : toIsoString(event.createdAt);
          const row = { ...event, position: position + 1 + ordinal, stream: append.stream, revision: firstRevision + ordinal, created_at: at };
          const hash = this.chained ? eventHash(row.position, link, { ...row, createdAt: at }) : GENESIS_HASH;
          const chained = { ...row, prev_hash: link, hash };
          link = hash;
          return chained;
        });
        rows.push(...appended);
        prevHash = link;
        position += append.events.length;
        const nextRevision = firstRevision + append.events.length - 1;
        revisions.set(append.stream, nextRevision);
        return { ok: true, result: { nextRevision, position } };
      } catch (error) {
        return { ok: false, error };
      }
    });
    if (rows.length > 0) {
      // One JSON parameter carries the whole group, which both drivers pass the same way.
      const links = this.chained ? { columns: ', prev_hash, hash', values: ", decode(e.prev_hash, 'hex'), decode(e.hash, 'hex')" } : { columns: '', values: '' };
      await tx.query(
        `INSERT INTO ${this.table} (position, id, stream, revision, type, data, metadata, created_at${links.columns})
         SELECT e.position, e.id, e.stream, e.revision, e.type, e.data, e.metadata, e.created_at${links.values}
         FROM jsonb_to_recordset($1::jsonb)
           AS e(position bigint, id uuid, stream text, revision bigint, type text, data jsonb, metadata jsonb, created_at timestamptz, prev_hash text, hash text)
         ORDER BY e.position`,
        [JSON.stringify(this.chained ? rows : rows.map(({ prev_hash: _prev, hash: _hash, ...row }) => row))],
      );
      await tx.announceAppend();
    }
    return outcomes;
  }

  async readStream(stream: string): Promise<StreamEvents> {
    const rows = await this.client.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM ${this.table} WHERE stream = $1 ORDER BY revision`, [stream]);
    return streamEvents(rows.map(toRecordedEvent));
  }

  async readAll({ from = START, limit = DEFAULT_READ_LIMIT }: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    assertPosition('from', from);
    if (!Number.isSafeInteger(limit) || limit < 1) throw new TypeError(`limit must be a positive integer, got ${String(limit)}`);
    const rows = await this.client.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM ${this.table} WHERE position > $1 ORDER BY position LIMIT $2`, [from, limit]);
    return rows.map(toRecordedEvent);
  }

  async readChain({ from = START, limit = DEFAULT_READ_LIMIT, stream }: ReadAllOptions & { stream?: string } = {}): Promise<ChainedEvent[]> {
    if (!this.chained) throw new TypeError('this log was opened without its hash chain');
    assertPosition('from', from);
    if (!Number.isSafeInteger(limit) || limit < 1) throw new TypeError(`limit must be a positive integer, got ${String(limit)}`);
    const rows =
      stream === undefined
        ? await this.client.query<ChainedEventRow>(`SELECT ${CHAINED_EVENT_COLUMNS} FROM ${this.table} WHERE position > $1 ORDER BY position LIMIT $2`, [from, limit])
        : await this.client.query<ChainedEventRow>(`SELECT ${CHAINED_EVENT_COLUMNS} FROM ${this.table} WHERE stream = $3 AND position > $1 ORDER BY position LIMIT $2`, [from, limit, stream]);
    return rows.map(toChainedEvent);
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

  /** Not cancellable: PostgreSQL's pool gives up on an unreachable database after its connect timeout, and PGlite runs in this process. */
  async ping(): Promise<void> {
    await this.client.query('SELECT 1');
  }

  storeId(): Promise<string> {
    return readStoreId(this.client, this.schema);
  }

  /** The store's id, created on first open (its own table and migration, apart from the log's). */
  protected createStoreIdentity(): Promise<void> {
    return createStoreIdentity(this.client, this.schema);
  }

  /** Live subscriptions end (their loops finish) rather than fail on a closed connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const wake of this.closing) wake();
    await this.client.close();
  }
}

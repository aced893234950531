import { z } from 'zod';
import { toAuditEventAnswer, type AuditLogEvent } from '@honeylend/contracts';
import type { ChainedEvent, EventStore, RecordedEvent } from '@honeylend/eventstore';

/** Stream names are ours (member-<uuid>, phone-+63…, admin-username-<email>, settings-admin-ips): no spaces or control characters. */
export const STREAM_NAME = /^[a-z][a-z0-9-]*-[\w.@+:-]{1,200}$/i;
export const STREAM_NAME_MESSAGE = 'Name a stream, e.g. member-<id>';

const position = (message: string) =>
  z
    .string({ error: message })
    .regex(/^\d{1,15}$/, message)
    .transform(Number);

const isoTime = (name: string) => z.iso.datetime({ offset: true, error: `${name} is a date and time, e.g. 2026-11-23T08:00:00+08:00` }).transform((value) => new Date(value).toISOString());

const MESSAGES = {
  from: 'from is a position: a whole number from 0',
  to: 'to is a position: a whole number from 0',
  limit: 'limit is a whole number from 1 to 500',
  type: 'type is an event type, e.g. LoanApplied',
  actor: 'actor is who acted: an account id, "self" or "system"',
  order: 'until must not be before since',
  range: 'to must not be before from',
} as const;

/**
 * The filters of GET /api/audit/events and /api/audit/export; they combine (all must hold).
 * `from` is exclusive (the last position seen: the cursor), `to` inclusive.
 */
const logFilterFields = {
  from: position(MESSAGES.from).optional(),
  to: position(MESSAGES.to).optional(),
  stream: z.string({ error: STREAM_NAME_MESSAGE }).regex(STREAM_NAME, STREAM_NAME_MESSAGE).optional(),
  type: z
    .string({ error: MESSAGES.type })
    .regex(/^[A-Za-z][A-Za-z0-9]{1,80}$/, MESSAGES.type)
    .optional(),
  actor: z
    .string({ error: MESSAGES.actor })
    .regex(/^[\w.@:-]{1,100}$/, MESSAGES.actor)
    .optional(),
  since: isoTime('since').optional(),
  until: isoTime('until').optional(),
};

type FilterFields = z.output<z.ZodObject<typeof logFilterFields>>;

function checkRanges(query: FilterFields, ctx: z.RefinementCtx): void {
  if (query.since !== undefined && query.until !== undefined && query.since > query.until) ctx.addIssue({ code: 'custom', message: MESSAGES.order, path: ['until'] });
  if (query.from !== undefined && query.to !== undefined && query.from > query.to) ctx.addIssue({ code: 'custom', message: MESSAGES.range, path: ['to'] });
}

export const auditEventsQuery = z
  .object({
    ...logFilterFields,
    limit: z
      .string({ error: MESSAGES.limit })
      .regex(/^\d{1,3}$/, MESSAGES.limit)
      .transform(Number)
      .pipe(z.number().min(1, MESSAGES.limit).max(500, MESSAGES.limit))
      .optional()
      .transform((value) => value ?? 100),
  })
  .superRefine(checkRanges);

export const auditExportQuery = z
  .object({
    ...logFilterFields,
    format: z
      .enum(['ndjson', 'csv'], { error: 'format is ndjson or csv' })
      .optional()
      .transform((value) => value ?? 'ndjson'),
  })
  .superRefine(checkRanges);

export type LogFilters = FilterFields;

/** The filters as the export event records them: only those given, as given. */
export function filtersAsText(filters: LogFilters): Record<string, string> {
  const { stream, type, actor, since, until } = filters;
  return Object.fromEntries(Object.entries({ stream, type, actor, since, until }).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/**
 * The last position recorded at or before `time` (0 when none). The SQL stores record times that
 * never go backwards, so on a dense log this is a binary search of a few reads; elsewhere the log
 * is read from the start.
 */
export async function positionAtTime(store: EventStore, time: string): Promise<number> {
  const head = await store.headPosition();
  if (!store.integrity.densePositions) {
    let found = 0;
    for (let from = 0; ;) {
      const page = await store.readAll({ from, limit: 5_000 });
      for (const event of page) {
        if (event.createdAt > time) return found;
        found = event.position;
      }
      if (page.length < 5_000) return found;
      from = page[page.length - 1].position;
    }
  }
  let low = 0;
  let high = head;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const [event] = await store.readAll({ from: middle - 1, limit: 1 });
    if (event && event.createdAt <= time) low = middle;
    else high = middle - 1;
  }
  return low;
}

export function toAuditLogEvent(event: RecordedEvent | ChainedEvent): AuditLogEvent {
  return { ...toAuditEventAnswer(event), id: event.id, hash: 'hash' in event ? event.hash : null, prevHash: 'prevHash' in event ? event.prevHash : null };
}

function matches(event: RecordedEvent, filters: LogFilters): boolean {
  return (
    (filters.type === undefined || event.type === filters.type) &&
    (filters.actor === undefined || event.metadata.actorId === filters.actor) &&
    (filters.since === undefined || event.createdAt >= filters.since) &&
    (filters.until === undefined || event.createdAt <= filters.until)
  );
}

const SCAN_PAGE = 2_000;

export interface ScanOptions {
  /** Kept up to date: the last position looked at, and how many were. */
  scanned?: { last: number; count: number };
  /** Stop after looking at this many events (the caller answers with a cursor). */
  maxScanned?: number;
}

/**
 * The log's events that pass the filters, in order, after `from`, read in pages (with their
 * links where the store keeps them), until `to`, `until` or the end; one stream is read by itself.
 */
export async function* matchingEvents(store: EventStore, filters: LogFilters, { scanned = { last: 0, count: 0 }, maxScanned = Number.POSITIVE_INFINITY }: ScanOptions = {}): AsyncGenerator<RecordedEvent | ChainedEvent> {
  const from = filters.from ?? 0;
  const to = filters.to ?? Number.MAX_SAFE_INTEGER;
  const stream = filters.stream;
  const pages = async function* (): AsyncGenerator<Array<RecordedEvent | ChainedEvent>> {
    if (stream !== undefined && !store.readChain) {
      yield (await store.readStream(stream)).filter((event) => event.position > from);
      return;
    }
    let cursor = filters.since !== undefined && stream === undefined ? Math.max(from, await positionAtTime(store, new Date(Date.parse(filters.since) - 1).toISOString())) : from;
    for (;;) {
      const page = store.readChain ? await store.readChain({ from: cursor, limit: SCAN_PAGE, stream }) : await store.readAll({ from: cursor, limit: SCAN_PAGE });
      yield page;
      if (page.length < SCAN_PAGE) return;
      cursor = page[page.length - 1].position;
    }
  };
  for await (const page of pages()) {
    for (const event of page) {
      if (event.position > to || (filters.until !== undefined && event.createdAt > filters.until)) return;
      scanned.last = event.position;
      scanned.count++;
      if (matches(event, filters)) yield event;
      if (scanned.count >= maxScanned) return;
    }
  }
}

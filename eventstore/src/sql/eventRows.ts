import type { ChainedEvent, EventMetadata, RecordedEvent } from '../port.js';

/**
 * created_at as the ISO-8601 text the port answers (UTC, milliseconds, truncated as a JS Date
 * truncates): written by the server, so a page of events costs no Date parse and re-format per row
 * (a third of the client's time reading the log for `lending audit verify` and the book).
 */
const CREATED_AT_ISO = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`;
const ISO_UTC_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The columns a RecordedEvent is read from (the hash columns are read only where asked for). */
export const EVENT_COLUMNS = `position, id, stream, revision, type, data, metadata, ${CREATED_AT_ISO}`;
/** The columns of a ChainedEvent: the event's and its link, as hex. */
export const CHAINED_EVENT_COLUMNS = `${EVENT_COLUMNS}, encode(prev_hash, 'hex') AS prev_hash, encode(hash, 'hex') AS hash`;

export interface EventRow {
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

export interface ChainedEventRow extends EventRow {
  prev_hash: string | null;
  hash: string | null;
}

/** pg returns bigint columns as strings (PGlite as numbers); positions and revisions stay far below 2^53. */
export function toNumber(value: unknown): number {
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(number)) throw new RangeError(`expected an integer column value, got ${String(value)}`);
  return number;
}

export function toIsoString(value: unknown): string {
  return (value instanceof Date ? value : new Date(String(value))).toISOString();
}

/** A created_at column as the port answers it: already ISO text when read with EVENT_COLUMNS. */
function createdAtOf(value: unknown): string {
  return typeof value === 'string' && ISO_UTC_MS.test(value) ? value : toIsoString(value);
}

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    stream: row.stream,
    type: row.type,
    data: row.data,
    metadata: row.metadata ?? {},
    revision: toNumber(row.revision),
    position: toNumber(row.position),
    createdAt: createdAtOf(row.created_at),
  };
}

/** A row read with CHAINED_EVENT_COLUMNS; a link not yet written (a log being chained) reads as ''. */
export function toChainedEvent(row: ChainedEventRow): ChainedEvent {
  // One object per row, not a RecordedEvent spread into another: verification reads every row of the log.
  return {
    id: row.id,
    stream: row.stream,
    type: row.type,
    data: row.data,
    metadata: row.metadata ?? {},
    revision: toNumber(row.revision),
    position: toNumber(row.position),
    createdAt: createdAtOf(row.created_at),
    prevHash: row.prev_hash ?? '',
    hash: row.hash ?? '',
  };
}

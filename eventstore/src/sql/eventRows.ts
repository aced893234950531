import type { ChainedEvent, EventMetadata, RecordedEvent } from '../port.js';

/** The columns a RecordedEvent is read from (the hash columns are read only where asked for). */
export const EVENT_COLUMNS = 'position, id, stream, revision, type, data, metadata, created_at';
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

export function toRecordedEvent(row: EventRow): RecordedEvent {
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

/** A row read with CHAINED_EVENT_COLUMNS; a link not yet written (a log being chained) reads as ''. */
export function toChainedEvent(row: ChainedEventRow): ChainedEvent {
  return { ...toRecordedEvent(row), prevHash: row.prev_hash ?? '', hash: row.hash ?? '' };
}

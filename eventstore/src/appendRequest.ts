import type { ExpectedRevision, NewEvent } from './port.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A new event as every adapter stores it: lower-case id, metadata always an object. */
export interface ValidatedEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  /** ISO-8601 (milliseconds, UTC): given only when a backup is restored. */
  createdAt?: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Rejects what no adapter can store faithfully, before anything is written. Names starting with
 * `$` are reserved by EventStoreDB for its own streams and events, so every adapter refuses them
 * and the same events can move between adapters.
 */
export function validateAppend(stream: string, events: NewEvent[], expectedRevision: ExpectedRevision): ValidatedEvent[] {
  if (typeof stream !== 'string' || stream.length === 0 || stream.startsWith('$')) {
    throw new TypeError(`invalid stream name ${JSON.stringify(stream)}: it must be non-empty and must not start with "$"`);
  }
  if (expectedRevision !== 'any' && expectedRevision !== 'no_stream' && !(Number.isSafeInteger(expectedRevision) && expectedRevision >= 0)) {
    throw new TypeError(`invalid expected revision ${String(expectedRevision)} for stream ${stream}`);
  }
  if (!Array.isArray(events) || events.length === 0) throw new TypeError(`append to ${stream} needs at least one event`);
  const ids = new Set<string>();
  return events.map((event) => {
    if (typeof event.id !== 'string' || !UUID.test(event.id)) throw new TypeError(`event id ${JSON.stringify(event.id)} is not a UUID`);
    const id = event.id.toLowerCase();
    if (ids.has(id)) throw new TypeError(`event id ${id} appears twice in one append to ${stream}`);
    ids.add(id);
    if (typeof event.type !== 'string' || event.type.length === 0 || event.type.startsWith('$')) {
      throw new TypeError(`invalid event type ${JSON.stringify(event.type)}: it must be non-empty and must not start with "$"`);
    }
    if (!isPlainObject(event.data)) throw new TypeError(`event ${id} (${event.type}): data must be a JSON object`);
    if (event.metadata !== undefined && !isPlainObject(event.metadata)) throw new TypeError(`event ${id} (${event.type}): metadata must be a JSON object`);
    if (event.createdAt !== undefined) {
      const time = typeof event.createdAt === 'string' ? Date.parse(event.createdAt) : Number.NaN;
      if (Number.isNaN(time)) throw new TypeError(`event ${id} (${event.type}): createdAt ${JSON.stringify(event.createdAt)} is not an ISO-8601 time`);
      return { id, type: event.type, data: event.data, metadata: { ...event.metadata }, createdAt: new Date(time).toISOString() };
    }
    return { id, type: event.type, data: event.data, metadata: { ...event.metadata } };
  });
}

/**
 * Names derived from the store's schema: the quoted table, the advisory-lock keys and the
 * notification channel. Each schema is an independent event log, so tests and benchmarks in
 * their own schemas never wait on each other's locks or wake each other's subscribers.
 */

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export const DEFAULT_SCHEMA = 'public';

export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) {
    throw new TypeError(`invalid schema name ${JSON.stringify(schema)}: use letters, digits and _ (at most 63, not starting with a digit)`);
  }
}

/** FNV-1a, folded to a signed 32-bit integer as the two-key advisory lock functions take. */
function int32Hash(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

/** One lock for all DDL of this library, whatever the schema: CREATE SCHEMA IF NOT EXISTS races even across schemas. */
export const DDL_LOCK: readonly [number, number] = [int32Hash('honeylend.eventstore.ddl'), 0];

export function appendLockOf(schema: string): readonly [number, number] {
  return [int32Hash('honeylend.eventstore.append'), int32Hash(schema)];
}

export function eventsTableOf(schema: string): string {
  return `"${schema}".events`;
}

/**
 * A hash keeps the channel within PostgreSQL's 63-byte identifier limit for any schema name; two
 * schemas sharing a hash would only wake each other's subscribers for a needless read.
 */
export function appendChannelOf(schema: string): string {
  return `eventstore_appended_${(int32Hash(schema) >>> 0).toString(16).padStart(8, '0')}`;
}

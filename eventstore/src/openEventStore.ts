import { EsdbEventStore } from './esdb/esdbEventStore.js';
import { PgliteEventStore } from './pgliteEventStore.js';
import type { EventStore } from './port.js';
import { PostgresEventStore } from './postgresEventStore.js';
import type { ChainMigrationProgress } from './sql/hashChainSchema.js';

export interface OpenEventStoreOptions {
  /** PostgreSQL and PGlite: the schema holding the log (wins over a `?schema=` in the URL). Default `public`. */
  schema?: string;
  /** PostgreSQL and PGlite: progress of chaining a log written before the hash chain (its first open after upgrading). */
  onChainMigration?: (progress: ChainMigrationProgress) => void;
}

export const SUPPORTED_EVENT_STORE_URLS = 'pglite:<directory>, pglite:memory, postgres://…, postgresql://… or esdb://host:2113?tls=false';

/**
 * Opens the adapter the URL names, and resolves once the store answers:
 * - `pglite:<directory>` or `pglite:memory`: embedded PGlite;
 * - `postgres://…` / `postgresql://…` (optionally `?schema=name`): PostgreSQL;
 * - `esdb://…` / `esdb+discover://…`: EventStoreDB.
 */
export async function openEventStore(url: string, options: OpenEventStoreOptions = {}): Promise<EventStore> {
  if (url.startsWith('pglite:')) return PgliteEventStore.open(url.slice('pglite:'.length), options);
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return PostgresEventStore.open(url, options);
  if (url.startsWith('esdb://') || url.startsWith('esdb+discover://')) return EsdbEventStore.open(url);
  // Only the scheme is repeated: the rest of a URL may hold a password.
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0] ?? '(no scheme)';
  throw new TypeError(`unsupported event store URL scheme ${scheme}: use ${SUPPORTED_EVENT_STORE_URLS}`);
}

import { resolve } from 'node:path';
import { SqlEventStore } from './sql/sqlEventStore.js';
import { PgliteSqlClient } from './sql/pgliteSqlClient.js';
import { DEFAULT_SCHEMA } from './sql/schemaNames.js';
import type { ChainMigrationProgress } from './sql/hashChainSchema.js';

export interface PgliteEventStoreOptions {
  /** Schema holding the `events` table, created if missing. Default `public`. */
  schema?: string;
  /** Called while a log written before the hash chain is being chained (its first open after upgrading). */
  onChainMigration?: (progress: ChainMigrationProgress) => void;
}

/**
 * The event store embedded in this process (PGlite: PostgreSQL compiled to WebAssembly). Only
 * one process may open a data directory, so this suits the all-in-one `lending start`.
 */
export class PgliteEventStore extends SqlEventStore {
  /** `location` is a data directory (created if missing) or 'memory'. */
  static async open(location: string, { schema = DEFAULT_SCHEMA, onChainMigration }: PgliteEventStoreOptions = {}): Promise<PgliteEventStore> {
    if (location.length === 0) throw new TypeError("PGlite needs a data directory or 'memory'");
    const client = await PgliteSqlClient.open(location === 'memory' ? location : resolve(location));
    try {
      const store = new PgliteEventStore('pglite', client, schema);
      await store.createSchema();
      await store.createStoreIdentity();
      await store.ensureHashChain(onChainMigration);
      return store;
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
  }
}

import { resolve } from 'node:path';
import { SqlEventStore } from './sql/sqlEventStore.js';
import { PgliteSqlClient } from './sql/pgliteSqlClient.js';
import { DEFAULT_SCHEMA } from './sql/schemaNames.js';

export interface PgliteEventStoreOptions {
  /** Schema holding the `events` table, created if missing. Default `public`. */
  schema?: string;
}

/**
 * The event store embedded in this process (PGlite: PostgreSQL compiled to WebAssembly). Only
 * one process may open a data directory, so this suits the all-in-one `lending start`.
 */
export class PgliteEventStore extends SqlEventStore {
  /** `location` is a data directory (created if missing) or 'memory'. */
  static async open(location: string, { schema = DEFAULT_SCHEMA }: PgliteEventStoreOptions = {}): Promise<PgliteEventStore> {
    if (location.length === 0) throw new TypeError("PGlite needs a data directory or 'memory'");
    const client = await PgliteSqlClient.open(location === 'memory' ? location : resolve(location));
    try {
      const store = new PgliteEventStore('pglite', client, schema);
      await store.createSchema();
      return store;
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
  }
}

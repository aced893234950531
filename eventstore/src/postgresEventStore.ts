import { SqlEventStore } from './sql/sqlEventStore.js';
import { PostgresSqlClient, type PostgresSqlClientOptions } from './sql/postgresSqlClient.js';
import { DEFAULT_SCHEMA, appendChannelOf, assertSchemaName } from './sql/schemaNames.js';
import type { ChainMigrationProgress } from './sql/hashChainSchema.js';

export interface PostgresEventStoreOptions extends PostgresSqlClientOptions {
  /** Schema holding the `events` table, created if missing; wins over the URL's `?schema=`. Default `public`. */
  schema?: string;
  /** Called while a log written before the hash chain is being chained (its first open after upgrading). */
  onChainMigration?: (progress: ChainMigrationProgress) => void;
  /**
   * false: no hash chain and no append-only trigger — only for the benchmark, which measures in
   * the same run what the chain costs an append, on a schema of its own. Never for a real log.
   */
  hashChain?: boolean;
}

/** The event store in a PostgreSQL database, shared by any number of processes. */
export class PostgresEventStore extends SqlEventStore {
  /** `url` is `postgres://…` or `postgresql://…`, optionally with `?schema=name`. */
  static async open(url: string, options: PostgresEventStoreOptions = {}): Promise<PostgresEventStore> {
    const parsed = new URL(url);
    const schema = options.schema ?? parsed.searchParams.get('schema') ?? DEFAULT_SCHEMA;
    assertSchemaName(schema);
    // `schema` is ours, not a libpq parameter: pg must not see it.
    parsed.searchParams.delete('schema');
    const client = new PostgresSqlClient({ connectionString: parsed.toString() }, appendChannelOf(schema), options);
    const store = new PostgresEventStore('postgres', client, schema, options.hashChain ?? true);
    try {
      await store.createSchema();
      await store.createStoreIdentity();
      if (options.hashChain !== false) await store.ensureHashChain(options.onChainMigration);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    return store;
  }
}

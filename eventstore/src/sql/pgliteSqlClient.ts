import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { EventStoreUnavailable } from '../port.js';
import type { SqlClient, SqlRow, SqlTransaction, TransactionOptions } from './sqlClient.js';

/**
 * Embedded PGlite: one in-process database that only this process may open, so waking
 * subscribers after a commit is an in-process call, and PGlite itself runs one statement or
 * transaction at a time.
 */
export class PgliteSqlClient implements SqlClient {
  private readonly listeners = new Set<() => void>();

  private constructor(private readonly db: PGlite) {}

  /** `location` is a data directory, or 'memory' for a throwaway database. */
  static async open(location: string): Promise<PgliteSqlClient> {
    if (location !== 'memory') mkdirSync(location, { recursive: true });
    try {
      return new PgliteSqlClient(await PGlite.create(location === 'memory' ? undefined : location));
    } catch (error) {
      throw new EventStoreUnavailable(`PGlite could not open ${location}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  private assertOpen(): void {
    if (this.db.closed) throw new EventStoreUnavailable('the PGlite event store is closed');
  }

  async query<Row extends SqlRow = SqlRow>(text: string, params?: readonly unknown[]): Promise<Row[]> {
    this.assertOpen();
    return (await this.db.query<Row>(text, params ? [...params] : undefined)).rows;
  }

  async transaction<T>(work: (tx: SqlTransaction) => Promise<T>, { lock }: TransactionOptions = {}): Promise<T> {
    this.assertOpen();
    let appended = false;
    const result = await this.db.transaction(async (tx) => {
      if (lock) await tx.query('SELECT pg_advisory_xact_lock($1, $2)', [...lock]);
      return work({
        query: <Row extends SqlRow = SqlRow>(text: string, params?: readonly unknown[]) => tx.query<Row>(text, params ? [...params] : undefined).then((r) => r.rows),
        announceAppend: async () => {
          appended = true;
        },
      });
    });
    if (appended) for (const listener of this.listeners) listener();
    return result;
  }

  onAppend(listener: () => void): () => void {
    const entry = () => listener();
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  async close(): Promise<void> {
    if (!this.db.closed) await this.db.close();
  }
}

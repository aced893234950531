/**
 * The little the SQL event store needs from a database: PostgreSQL through a `pg` pool and
 * embedded PGlite both provide it, so the event store's SQL is written once.
 */

export type SqlRow = Record<string, unknown>;

export interface SqlQueryable {
  /** Runs one statement with `$1…` parameters and returns its rows. */
  query<Row extends SqlRow = SqlRow>(text: string, params?: readonly unknown[]): Promise<Row[]>;
}

export interface SqlTransaction extends SqlQueryable {
  /** Wakes the store's subscribers once this transaction has committed (never if it rolls back). */
  announceAppend(): Promise<void>;
}

export interface TransactionOptions {
  /**
   * A transaction-scoped advisory lock (the two-key form) taken before `work` runs. Clients that
   * can send it together with BEGIN do, saving a round trip on the appends' hot path.
   */
  lock?: readonly [number, number];
}

export interface SqlClient extends SqlQueryable {
  /** Runs `work` in one READ COMMITTED transaction, committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: SqlTransaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Calls `listener` after appends commit (other processes' too, where the database can tell); returns the way to stop. */
  onAppend(listener: () => void): () => void;
  close(): Promise<void>;
}

import { createHash } from 'node:crypto';
import pg from 'pg';
import type { SqlClient, SqlRow, SqlTransaction, TransactionOptions } from './sqlClient.js';
import { PostgresAppendListener } from './postgresAppendListener.js';
import { isConnectionFailure, translatePostgresError } from './postgresErrors.js';

export interface PostgresSqlClientOptions {
  /** Connections in the pool (default 10). */
  poolSize?: number;
  /** How long to wait for a connection before answering EventStoreUnavailable (default 5 s). */
  connectTimeoutMs?: number;
}

/**
 * PostgreSQL through a `pg` pool, plus one dedicated LISTEN connection so that subscribers in
 * any process are woken by appends made in any other.
 */
export class PostgresSqlClient implements SqlClient {
  private readonly pool: pg.Pool;
  private readonly appendListener: PostgresAppendListener;

  constructor(
    connectionConfig: pg.ClientConfig,
    private readonly appendChannel: string,
    { poolSize = 10, connectTimeoutMs = 5000 }: PostgresSqlClientOptions = {},
  ) {
    this.pool = new pg.Pool({ ...connectionConfig, max: poolSize, connectionTimeoutMillis: connectTimeoutMs, keepAlive: true });
    // An idle pooled connection that dies emits 'error' on the pool; unhandled, that would crash the
    // process. The pool has already discarded it and the next query opens a fresh one.
    this.pool.on('error', () => undefined);
    if (!/^\w{1,63}$/.test(appendChannel)) throw new TypeError(`invalid notification channel ${JSON.stringify(appendChannel)}`);
    this.appendListener = new PostgresAppendListener({ ...connectionConfig, connectionTimeoutMillis: connectTimeoutMs }, appendChannel);
  }

  /** Statement names by text: the store's statements are a handful of fixed texts (their values travel as parameters). */
  private readonly statementNames = new Map<string, string>();

  /**
   * A statement with parameters goes as a named prepared statement: each connection parses and
   * plans it once, then only binds and executes it (the append's state read and insert were parsed
   * and planned afresh on every append).
   */
  private statement(text: string, params?: readonly unknown[]): pg.QueryConfig {
    if (!params) return { text };
    let name = this.statementNames.get(text);
    if (name === undefined) {
      name = `hl_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
      this.statementNames.set(text, name);
    }
    return { name, text, values: [...params] };
  }

  async query<Row extends SqlRow = SqlRow>(text: string, params?: readonly unknown[]): Promise<Row[]> {
    try {
      return (await this.pool.query<Row>(this.statement(text, params))).rows;
    } catch (error) {
      throw translatePostgresError(error);
    }
  }

  /**
   * Statements without parameters travel together in one simple-query message (BEGIN with the
   * lock, NOTIFY with COMMIT): under load every round trip to the server waits for a CPU, so an
   * append's transaction costs four of them instead of seven.
   */
  async transaction<T>(work: (tx: SqlTransaction) => Promise<T>, { lock }: TransactionOptions = {}): Promise<T> {
    let connection: pg.PoolClient;
    try {
      connection = await this.pool.connect();
    } catch (error) {
      throw translatePostgresError(error);
    }
    // A connection that failed mid-transaction is destroyed rather than returned to the pool.
    let broken: Error | undefined;
    // The pool listens for errors only on idle connections: one the server ends while this
    // transaction holds it between two statements (a PostgreSQL restart) would otherwise be an
    // unhandled 'error' event, which ends the process. The next statement fails instead.
    const onConnectionError = (error: Error) => {
      broken = error;
    };
    connection.on('error', onConnectionError);
    let announce = false;
    try {
      const lockStatement = lock ? `; SELECT pg_advisory_xact_lock(${lockKey(lock[0])}, ${lockKey(lock[1])})` : '';
      await connection.query(`BEGIN ISOLATION LEVEL READ COMMITTED${lockStatement}`);
      const result = await work({
        query: async <Row extends SqlRow = SqlRow>(text: string, params?: readonly unknown[]) => (await connection.query<Row>(this.statement(text, params))).rows,
        // Delivered by PostgreSQL at commit, and dropped on rollback.
        announceAppend: async () => {
          announce = true;
        },
      });
      // The channel is made of a fixed prefix and hex digits (appendChannelOf), so quoting it is enough.
      await connection.query(announce ? `NOTIFY "${this.appendChannel}"; COMMIT` : 'COMMIT');
      return result;
    } catch (error) {
      if (isConnectionFailure(error)) broken = error as Error;
      else
        await connection.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
      throw translatePostgresError(error);
    } finally {
      // A broken connection keeps the listener: it is destroyed, and may still report its end.
      if (!broken) connection.off('error', onConnectionError);
      connection.release(broken);
    }
  }

  onAppend(listener: () => void): () => void {
    return this.appendListener.add(listener);
  }

  async close(): Promise<void> {
    await this.appendListener.close();
    await this.pool.end();
  }
}

/** An advisory-lock key written into SQL text: only a 32-bit integer may pass. */
function lockKey(key: number): string {
  if (!Number.isInteger(key) || key < -(2 ** 31) || key >= 2 ** 31) throw new TypeError(`advisory lock keys are 32-bit integers, got ${String(key)}`);
  return String(key);
}

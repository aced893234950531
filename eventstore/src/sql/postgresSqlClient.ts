import pg from 'pg';
import type { SqlClient, SqlRow, SqlTransaction } from './sqlClient.js';
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
    this.appendListener = new PostgresAppendListener({ ...connectionConfig, connectionTimeoutMillis: connectTimeoutMs }, appendChannel);
  }

  async query<Row extends SqlRow = SqlRow>(text: string, params?: readonly unknown[]): Promise<Row[]> {
    try {
      return (await this.pool.query<Row>(text, params ? [...params] : undefined)).rows;
    } catch (error) {
      throw translatePostgresError(error);
    }
  }

  async transaction<T>(work: (tx: SqlTransaction) => Promise<T>): Promise<T> {
    let connection: pg.PoolClient;
    try {
      connection = await this.pool.connect();
    } catch (error) {
      throw translatePostgresError(error);
    }
    // A connection that failed mid-transaction is destroyed rather than returned to the pool.
    let broken: Error | undefined;
    try {
      await connection.query('BEGIN ISOLATION LEVEL READ COMMITTED');
      const result = await work({
        query: async <Row extends SqlRow = SqlRow>(text: string, params?: readonly unknown[]) =>
          (await connection.query<Row>(text, params ? [...params] : undefined)).rows,
        // Delivered by PostgreSQL at commit, and dropped on rollback.
        announceAppend: async () => {
          await connection.query('SELECT pg_notify($1, $2)', [this.appendChannel, '']);
        },
      });
      await connection.query('COMMIT');
      return result;
    } catch (error) {
      if (isConnectionFailure(error)) broken = error as Error;
      else
        await connection.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
      throw translatePostgresError(error);
    } finally {
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

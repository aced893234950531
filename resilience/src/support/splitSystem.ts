import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { openEventStore, type EventStore } from '@honeylend/eventstore';
import { freePort } from '../../../cli/src/testing/freePort.js';
import { spawnLending, type LendingProcess } from './lendingProcess.js';
import { eventually } from './waiting.js';

export type ServingRole = 'api' | 'projections' | 'workers';

export const SHARED_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const SHARED_POSTGRES_URL = (process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test').replace(/\?.*$/, '');

export interface SplitSystemOptions {
  /** Redis for read models and jobs (default: the machine's, under a key prefix of this system's own). */
  redisUrl?: string;
  /** PostgreSQL database without a schema (default: DATABASE_URL); the system gets a fresh schema in it. */
  postgresUrl?: string;
  /** More configuration for every role (SMS_SENDER, …). */
  env?: Record<string, string>;
}

export interface HttpAnswer {
  status: number;
  body: any;
  /** Milliseconds from sending to the whole answer read. */
  ms: number;
}

/**
 * The roles of one Honeylend system as separate `lending` processes over a PostgreSQL event store
 * in a schema of its own and Redis under a key prefix of its own, as a split deployment runs
 * them. Each role can be started, killed and restarted on its own; `cleanup` ends the processes
 * and removes the schema, the keys and the data directory.
 */
export class SplitSystem {
  readonly id = randomBytes(4).toString('hex');
  readonly keyPrefix = `resilience-${this.id}:`;
  readonly schema = `resilience_${this.id}`;
  readonly redisUrl: string;
  readonly postgresUrl: string;
  readonly eventStoreUrl: string;
  readonly jwtSecret = randomBytes(32).toString('hex');
  readonly otpSecret = randomBytes(32).toString('hex');
  readonly admin = { username: 'resilience-admin', password: randomBytes(16).toString('hex') };
  readonly dataDir = mkdtempSync(join(tmpdir(), 'honeylend-resilience-'));
  readonly processes: Partial<Record<ServingRole, LendingProcess>> = {};
  port = 0;
  private readonly extraEnv: Record<string, string>;
  private storeConnection: EventStore | undefined;
  private redisConnection: Redis | undefined;

  constructor(options: SplitSystemOptions = {}) {
    this.redisUrl = options.redisUrl ?? SHARED_REDIS_URL;
    this.postgresUrl = options.postgresUrl ?? SHARED_POSTGRES_URL;
    this.eventStoreUrl = `${this.postgresUrl}?schema=${this.schema}`;
    this.extraEnv = options.env ?? {};
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The configuration every role of this system runs with (README "Configuration"). */
  get env(): Record<string, string> {
    return {
      PORT: String(this.port),
      REDIS_URL: this.redisUrl,
      REDIS_KEY_PREFIX: this.keyPrefix,
      EVENTSTORE_URL: this.eventStoreUrl,
      DATA_DIR: this.dataDir,
      // Not 'production' only so the outbox sender stays allowed where a check does not set SMS_SENDER; every secret is set.
      NODE_ENV: 'test',
      JWT_SECRET: this.jwtSecret,
      OTP_SECRET: this.otpSecret,
      ADMIN_USERNAME: this.admin.username,
      ADMIN_PASSWORD: this.admin.password,
      LOG_LEVEL: 'warn',
      // Every borrower of a check registers from 127.0.0.1.
      REGISTRATIONS_PER_HOUR_PER_ADDRESS: '1000000',
      // A closed local port: the rates worker never reaches the internet from a test.
      RATES_URL: 'http://127.0.0.1:9/latest/PHP',
      ...this.extraEnv,
    };
  }

  /**
   * Starts the role's process (the api on this system's port, chosen on first start and kept across
   * restarts), with `env` added to this role's configuration only (e.g. its METRICS_PORT).
   */
  async start(role: ServingRole, env: Record<string, string> = {}): Promise<LendingProcess> {
    if (this.processes[role]?.isRunning()) throw new Error(`${role} is already running`);
    if (this.port === 0) this.port = await freePort();
    const child = spawnLending(role, { ...this.env, ...env });
    this.processes[role] = child;
    return child;
  }

  /** SIGKILL the role's process. */
  async kill9(role: ServingRole): Promise<void> {
    await this.processes[role]?.kill9();
  }

  /** Resolves once GET /api/ready answers 200 (the store and Redis answer); fails at once if the api exits. */
  async waitUntilReady(timeoutMs = 60_000): Promise<void> {
    const api = this.processes.api;
    if (!api) throw new Error('the api is not started');
    await eventually(`the api on ${this.baseUrl} to be ready`, timeoutMs, async () => {
      if (!api.isRunning()) throw new Error(`the api exited:\n${api.output().slice(-3_000)}`);
      const answer = await this.request('GET', '/api/ready', { timeoutMs: 3_000 }).catch(() => null);
      return answer?.status === 200 ? true : undefined;
    });
  }

  /** One HTTP call to the api; JSON in and out. Rejects only when no answer came (refused, or `timeoutMs` passed). */
  async request(method: string, path: string, options: { body?: unknown; token?: string; timeoutMs?: number; headers?: Record<string, string> } = {}): Promise<HttpAnswer> {
    const started = Date.now();
    const response = await fetch(this.baseUrl + path, {
      method,
      headers: {
        ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: the check will say so
    }
    return { status: response.status, body, ms: Date.now() - started };
  }

  /** The event store, opened from this process through the port (as tooling and tests do). */
  async store(): Promise<EventStore> {
    this.storeConnection ??= await openEventStore(this.eventStoreUrl);
    return this.storeConnection;
  }

  /** A Redis connection of the test's own (same server and db as the roles). */
  redis(): Redis {
    this.redisConnection ??= new Redis(this.redisUrl, { maxRetriesPerRequest: 2 });
    this.redisConnection.on('error', () => undefined);
    return this.redisConnection;
  }

  /** Ends the processes, closes connections, removes the schema, every key under the prefix and the data directory. */
  async cleanup(): Promise<void> {
    await Promise.all(Object.values(this.processes).map((child) => child.stop()));
    await this.storeConnection?.close().catch(() => undefined);
    const redis = this.redis();
    await deleteKeys(redis, `${this.keyPrefix}*`).catch(() => undefined);
    redis.disconnect();
    const client = new pg.Client({ connectionString: this.postgresUrl });
    try {
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${this.schema}" CASCADE`);
    } catch {
      // the check's own throwaway PostgreSQL may already be gone; its directory goes with it
    } finally {
      await client.end().catch(() => undefined);
    }
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

export async function deleteKeys(redis: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
}

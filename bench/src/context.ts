import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchOptions } from './options.js';
import { REPO_ROOT } from './processes.js';

/** Everything one run shares: its ids, where it writes, and the secrets it gives the system. */
export interface RunContext {
  options: BenchOptions;
  runId: string;
  /** redis://…/<db>: the bench's own Redis database. */
  redisUrl: string;
  /** Every Redis key this run writes starts with it, so cleaning up never touches anything else. */
  keyPrefix: string;
  /** PostgreSQL (without a schema); every schema this run creates starts with `schemaPrefix`. */
  postgresUrl: string;
  schemaPrefix: string;
  /** A fresh data directory (PGlite store, uploads), removed at the end. */
  dataDir: string;
  resultsDir: string;
  logDir: string;
  profileDir?: string;
  jwtSecret: string;
  otpSecret: string;
  adminPassword: string;
  notes: string[];
  /** Aborted on SIGINT/SIGTERM: scenarios not yet begun are skipped, loops stop between steps. */
  interrupt: AbortController;
}

export function createContext(options: BenchOptions, started: Date): RunContext {
  const stamp = started.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  const runId = `${stamp}-${randomBytes(2).toString('hex')}`;
  const db = process.env.BENCH_REDIS_DB ?? '9';
  const redisBase = (process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379').replace(/\/\d+$/, '');
  const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  for (const url of [redisBase, postgresUrl]) {
    const host = new URL(url).hostname;
    if (host !== '127.0.0.1' && host !== 'localhost') throw new Error(`the bench runs only against this machine; ${url} is not local`);
  }
  const resultsDir = join(REPO_ROOT, 'bench/results');
  const logDir = join(resultsDir, 'logs', runId);
  mkdirSync(logDir, { recursive: true });
  const profileDir = options.profile ? join(resultsDir, 'profiles', runId) : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const dataDir = join(tmpdir(), `honeylend-bench-${runId}`);
  mkdirSync(dataDir, { recursive: true });
  const secret = () => randomBytes(32).toString('hex');
  return {
    options,
    runId,
    redisUrl: `${redisBase}/${db}`,
    keyPrefix: `bench-${runId}:`,
    postgresUrl: postgresUrl.replace(/\?.*$/, ''),
    schemaPrefix: `bench_${runId.replace(/-/g, '_')}`,
    dataDir,
    resultsDir,
    logDir,
    profileDir,
    jwtSecret: secret(),
    otpSecret: secret(),
    adminPassword: secret(),
    notes: [],
    interrupt: new AbortController(),
  };
}

/** A port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

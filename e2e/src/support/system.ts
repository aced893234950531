import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { paths } from './paths.js';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface ApiAnswer {
  status: number;
  body: any;
}

export interface RunningSystem {
  baseUrl: string;
  admin: { username: string; password: string };
  /** Calls the API as a browser-less client would (JSON in and out). */
  request(method: string, path: string, options?: { body?: unknown; token?: string }): Promise<ApiAnswer>;
  /** A main-admin token, through POST /api/auth/admin-login. */
  adminToken(): Promise<string>;
  /** Everything the process wrote, for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the whole system the way a developer does — the built `lending start` (API, web app,
 * projections, workers) — on a free port, with its own data directory and Redis key prefix, the
 * development SMS outbox, and exchange rates pointed at a closed local port (never the internet).
 */
export async function startSystem(): Promise<RunningSystem> {
  const port = await freePort();
  // Bound and released at once: nothing listens there, so the rates fetch is refused immediately.
  const closedPort = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'honeylend-e2e-'));
  const keyPrefix = `e2e-${randomUUID()}:`;
  const admin = { username: 'admin', password: `e2e-${randomBytes(12).toString('hex')}` };
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    NODE_ENV: 'development',
    PORT: String(port),
    REDIS_URL,
    REDIS_KEY_PREFIX: keyPrefix,
    DATA_DIR: dataDir,
    SMS_SENDER: 'outbox',
    RATES_URL: `http://127.0.0.1:${closedPort}/latest/PHP`,
    LOG_LEVEL: 'warn',
    // Every borrower of the browser tests registers from 127.0.0.1.
    REGISTRATIONS_PER_HOUR_PER_ADDRESS: '1000000',
    ADMIN_USERNAME: admin.username,
    ADMIN_PASSWORD: admin.password,
    JWT_SECRET: randomBytes(32).toString('hex'),
    OTP_SECRET: randomBytes(32).toString('hex'),
  };
  const child = spawn(process.execPath, [paths.lendingCli, 'start'], { cwd: paths.repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.on('exit', (code) => {
      exitCode = code;
      resolve();
    }),
  );

  const baseUrl = `http://127.0.0.1:${port}`;

  async function request(method: string, path: string, { body, token }: { body?: unknown; token?: string } = {}): Promise<ApiAnswer> {
    const response = await fetch(baseUrl + path, {
      method,
      headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: the test shows the text
    }
    return { status: response.status, body: parsed };
  }

  async function stop(): Promise<void> {
    if (exitCode === undefined) {
      child.kill('SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
      if (!stopped) {
        child.kill('SIGKILL');
        await exited;
      }
    }
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 });
    try {
      await redis.connect();
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
    rmSync(dataDir, { recursive: true, force: true });
  }

  // Ready means the event store and Redis answer and the projections have caught up.
  // A functional bound: on a busy 2-core machine the first start (PGlite, the web build served) can take a minute.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exitCode !== undefined) {
      await stop();
      throw new Error(`lending start exited with ${exitCode} before it was ready:\n${output}`);
    }
    try {
      const ready = await request('GET', '/api/ready');
      if (ready.status === 200 && ready.body?.status === 'ready') break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`lending start was not ready within 120 s:\n${output}`);
    }
    await sleep(200);
  }

  let adminToken: string | null = null;
  return {
    baseUrl,
    admin,
    request,
    async adminToken() {
      if (adminToken) return adminToken;
      const answer = await request('POST', '/api/auth/admin-login', { body: admin });
      if (answer.status !== 200 || typeof answer.body?.token !== 'string') throw new Error(`admin login failed: ${answer.status} ${JSON.stringify(answer.body)}`);
      adminToken = answer.body.token as string;
      return adminToken;
    },
    output: () => output,
    stop,
  };
}

import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobKeys, readModelKeys } from '@honeylend/contracts';
import { TokenService } from '../sessions/tokens.js';
import { RevokedTokens } from '../sessions/revokedTokens.js';
import { ReadModelStore } from '../readModels/readModelStore.js';
import { errorHandling } from './errorHandling.js';
import { createLogger } from '../logging/logger.js';
import { idempotency } from './idempotency.js';
import type { ApiDeps } from '../context/context.js';

/**
 * The Idempotency-Key middleware against real Redis, in front of a handler the test holds open (a
 * request still running, or one whose process died), with a short pending hold so time passes quickly.
 */
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const prefix = `test-${randomUUID()}:`;
const keys = readModelKeys(prefix);
const tokens = Object.assign(new TokenService('idempotency-test-secret-long-enough'), { revoked: new RevokedTokens(redis, prefix) });
const readModels = new ReadModelStore(redis, keys);
const deps = { redis, readModels, tokens, jobs: { keys: createJobKeys(prefix) }, trustedProxies: [] } as unknown as ApiDeps;
const HOLD_MS = 1_000;
/** These tests send no /api/admin request; the staff guard is the staff capability's and is tested with it. */
const refuseStaff = () => Promise.reject(new Error('no staff route in this test'));

let release: () => void = () => undefined;
let runs = 0;
let server: Server;
let baseUrl = '';

beforeAll(async () => {
  const app = new Koa();
  app.use(errorHandling(createLogger('test', { level: 'error', write: () => undefined })));
  app.use(koaBody());
  app.use(idempotency(deps, refuseStaff, { pendingHoldMs: HOLD_MS, renewEveryMs: 200 }));
  app.use(async (ctx) => {
    runs += 1;
    await new Promise<void>((resolve) => (release = resolve));
    ctx.status = 201;
    ctx.body = { run: runs };
  });
  // Koa's handler catches its own errors (ctx.onerror); Node's server does not look at the promise it returns.
  const handle = app.callback();
  server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  release();
  await new Promise((resolve) => server.close(resolve));
  const left = await redis.keys(`${prefix}*`);
  if (left.length > 0) await redis.del(...left);
  redis.disconnect();
});

async function borrowerToken(): Promise<{ id: string; token: string }> {
  const id = randomUUID();
  await redis.hset(keys.auth(id), { role: 'borrower', status: 'active', tokenVersion: 0 });
  return { id, token: tokens.sign({ sub: id, role: 'borrower', tv: 0 }) };
}

const post = (token: string, key: string) =>
  fetch(`${baseUrl}/api/loans`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'Idempotency-Key': key },
    body: JSON.stringify({ amount: 80000 }),
  });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The key a request claimed, once the request has reached the middleware (a loaded machine may take a while). */
async function claimedKey(key: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [stored] = await redis.keys(`${prefix}idempotency:*:${key}`);
    if (stored) return stored;
    if (Date.now() > deadline) throw new Error(`no request claimed ${key}`);
    await sleep(20);
  }
}

describe('Idempotency-Key', () => {
  it("holds a running request's key for seconds, renewed while it runs, so a crash never leaves it stuck for a day", async () => {
    const { token } = await borrowerToken();
    const key = randomUUID();
    const first = post(token, key);
    const stored = await claimedKey(key);
    const ttl = await redis.pttl(stored);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(HOLD_MS);
    // Three holds later the request is still running, and its key still held (renewed).
    await sleep(HOLD_MS * 3);
    expect(await redis.pttl(stored)).toBeGreaterThan(0);
    release();
    expect((await first).status).toBe(201);
    // Its answer is kept for the day.
    expect(await redis.pttl(stored)).toBeGreaterThan(23 * 3_600_000);
    const replay = await post(token, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('frees the key of a request whose process died within the hold', async () => {
    const { token } = await borrowerToken();
    const key = randomUUID();
    const first = post(token, key);
    const stored = await claimedKey(key);
    // The process dies: nobody renews the hold any more (a stand-in for the renewals stopping with it).
    const marker = await redis.get(stored);
    await redis.set(stored, `${marker!.slice(0, -1)},"orphaned":true}`, 'PX', HOLD_MS);
    await sleep(HOLD_MS + 200);
    expect(await redis.exists(stored)).toBe(0);
    release();
    await first;
  });

  it('replays no kept answer to a token that has been signed out', async () => {
    const { token } = await borrowerToken();
    const key = randomUUID();
    const first = post(token, key);
    await claimedKey(key);
    release();
    expect((await first).status).toBe(201);
    const claims = tokens.verify(token)!;
    await tokens.revoked.revoke(claims.jti, claims.exp * 1000);
    const replay = await post(token, key);
    expect(replay.status).toBe(401);
    expect(replay.headers.get('idempotent-replayed')).toBeNull();
  });
});

import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../testing/freePort.js';
import { lending, type LendingRun } from '../testing/lendingCli.js';
import { REDIS_URL } from '../testing/testSystem.js';

/** The development JWT secret earlier releases signed with, as published in their README and code. */
const PUBLISHED_SECRET = 'honeylend-development-secret-not-for-production';
const PRINTED_PASSWORD = /The main admin "admin" was made with the password (\S+)/;

const dataDir = mkdtempSync(join(tmpdir(), 'lending-secrets-'));
const prefix = `test-${randomUUID()}:`;
afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

/** An HS256 token as the API signs them, signed with `secret`. */
function tokenSignedWith(secret: string, claims: { sub: string; role: string; tv: number }): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ ...claims, iat: now, exp: now + 3600, iss: 'honeylend', aud: 'honeylend-api', jti: randomUUID() })}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

async function startDevelopmentServer(port: number): Promise<LendingRun> {
  // NODE_ENV, JWT_SECRET, ADMIN_USERNAME and ADMIN_PASSWORD unset: a developer's first `npm start`.
  const run = lending(['start'], { REDIS_URL, DATA_DIR: dataDir, PORT: String(port), REDIS_KEY_PREFIX: prefix, LOG_LEVEL: 'warn', SMS_SENDER: 'outbox', RATES_URL: 'http://127.0.0.1:9/latest/PHP' });
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/ready`)).ok) return run;
    } catch {
      // not listening yet
    }
    if (run.child.exitCode !== null) throw new Error(`lending start exited: ${run.output().stderr}`);
    if (Date.now() > deadline) throw new Error('lending start did not become ready');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stop(run: LendingRun): Promise<void> {
  run.child.kill('SIGTERM');
  await run.exited;
}

describe('a development server started without secrets', () => {
  it('generates its JWT secret into the data directory (0600) and keeps it, prints the made admin password once, and accepts no token signed with the published secret', async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const first = await startDevelopmentServer(port);
    let token: string;
    let adminId: string;
    try {
      // Printed just after the API starts listening.
      const deadline = Date.now() + 10_000;
      while (!PRINTED_PASSWORD.test(first.output().stdout) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const printed = [...first.output().stdout.matchAll(new RegExp(PRINTED_PASSWORD, 'g'))].map((match) => match[1]);
      expect(printed).toHaveLength(1);
      const login = await fetch(`${baseUrl}/api/auth/admin-login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: printed[0] }) });
      expect(login.status).toBe(200);
      ({
        token,
        user: { id: adminId },
      } = (await login.json()) as { token: string; user: { id: string } });

      const secretFile = join(dataDir, 'jwt-secret');
      expect(statSync(secretFile).mode & 0o777).toBe(0o600);
      expect(readFileSync(secretFile, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);

      const forged = tokenSignedWith(PUBLISHED_SECRET, { sub: adminId, role: 'superadmin', tv: 0 });
      expect((await fetch(`${baseUrl}/api/admin/stats`, { headers: { Authorization: `Bearer ${forged}` } })).status).toBe(401);
      expect((await fetch(`${baseUrl}/api/admin/stats`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    } finally {
      await stop(first);
    }

    const secretBefore = readFileSync(join(dataDir, 'jwt-secret'), 'utf8');
    const second = await startDevelopmentServer(port);
    try {
      // The same secret: the token of the first run still works, and no password is made or printed again.
      expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8')).toBe(secretBefore);
      expect((await fetch(`${baseUrl}/api/admin/stats`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
      expect(second.output().stdout).not.toMatch(PRINTED_PASSWORD);
    } finally {
      await stop(second);
    }
  }, 240_000);
});

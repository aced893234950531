import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModelKeys } from '@honeylend/contracts';
import { openEventStore } from '@honeylend/eventstore';
import { createLogger } from '@honeylend/observability';
import { startLocalHttpServer, type LocalHttpServer } from '../../../workers/src/testing/localHttpServer.js';
import { findRedisServer, startOwnRedis, type OwnRedis } from '../ownRedis.js';
import { freePort } from '../testing/freePort.js';
import { runLending } from '../testing/lendingCli.js';

const POSTGRES_URL = (process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test').replace(/\?.*$/, '');
const schema = `doctor_${randomBytes(4).toString('hex')}`;
const dataDir = mkdtempSync(join(tmpdir(), 'lending-doctor-'));
let redis: OwnRedis;
let gateway: LocalHttpServer;

/** A production configuration with everything set, against a Redis and a PostgreSQL log of the test's own. */
const healthy = () => ({
  NODE_ENV: 'production',
  REDIS_URL: redis.url,
  EVENTSTORE_URL: `${POSTGRES_URL}?schema=${schema}`,
  DATA_DIR: dataDir,
  JWT_SECRET: randomBytes(32).toString('hex'),
  OTP_SECRET: randomBytes(32).toString('hex'),
  ADMIN_USERNAME: 'admin',
  ADMIN_PASSWORD: randomBytes(16).toString('hex'),
  SMS_SENDER: 'http',
  SMS_GATEWAY_URL: `${gateway.url}/messages`,
  SMS_API_KEY: 'gateway-key',
  AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
  BACKUP_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
});

const lines = (stdout: string) => stdout.trim().split('\n');
const row = (stdout: string, check: string) => lines(stdout).find((line) => line.startsWith(`${check}  `)) ?? '';

beforeAll(async () => {
  // Its own redis-server (noeviction, append-only file), so the test can also break its settings.
  redis = await startOwnRedis(findRedisServer()!, dataDir, createLogger('test', { level: 'silent' }));
  gateway = await startLocalHttpServer((_request, response) => response.writeHead(200).end('{}'));
});

afterAll(async () => {
  await redis?.stop();
  await gateway?.close();
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('lending doctor', () => {
  it('prints one table of what the system needs, all ok, and exits 0 on a machine that has it', async () => {
    const { code, stdout, stderr } = await runLending(['doctor'], healthy());
    expect(stderr).toBe('');
    expect(lines(stdout)[0]).toMatch(/^CHECK\s+STATUS\s+FOUND {2}→ {2}FIX$/);
    for (const check of [
      'Configuration',
      'Redis',
      'Redis memory policy',
      'Redis persistence',
      'Event store',
      'Projection lag',
      'Secrets',
      'Backup encryption',
      'SMS sender',
      'Disk (uploads)',
      'Disk (data)',
      'Clock',
      'Business date',
    ]) {
      expect(row(stdout, check), check).not.toBe('');
    }
    expect(row(stdout, 'Redis memory policy')).toMatch(/ ok +noeviction/);
    expect(row(stdout, 'Redis persistence')).toMatch(/ ok +append-only file on/);
    expect(row(stdout, 'Event store')).toMatch(/ ok +postgres, answers, head position 0/);
    expect(row(stdout, 'SMS sender')).toMatch(new RegExp(` ok +http gateway 127\\.0\\.0\\.1:${new URL(gateway.url).port} takes connections`));
    expect(row(stdout, 'Business date')).toMatch(/ ok +\d{4}-\d{2}-\d{2} in Manila/);
    expect(row(stdout, 'Backup encryption')).toMatch(/ ok +BACKUP_ENCRYPTION_KEY is set: lending backup seals the file with AES-256-GCM/);
    expect(stdout).not.toMatch(/ FAIL /);
    expect(code).toBe(0);
  });

  it('exits 1 and names each problem with its fix on the same line', async () => {
    const client = new Redis(redis.url);
    await client.config('SET', 'maxmemory-policy', 'allkeys-lru');
    client.disconnect();
    const store = await openEventStore(`${POSTGRES_URL}?schema=${schema}`);
    // An event two minutes old that no projection has applied.
    await store.append('doctor-probe', [{ id: randomUUID(), type: 'DoctorProbe', data: {}, createdAt: new Date(Date.now() - 120_000).toISOString() }], { expectedRevision: 'no_stream' });
    await store.close();
    const { code, stdout } = await runLending(['doctor'], { ...healthy(), JWT_SECRET: 'too-short', SMS_GATEWAY_URL: `http://127.0.0.1:${await freePort()}/messages` });
    expect(code).toBe(1);
    expect(row(stdout, 'Configuration')).toMatch(/ FAIL +JWT_SECRET must be at least 32 characters when NODE_ENV=production {2}→ {2}correct/);
    expect(row(stdout, 'Secrets')).toMatch(/ FAIL +NODE_ENV=production without JWT_SECRET {2}→ {2}set JWT_SECRET \(32\+ random characters\)/);
    expect(row(stdout, 'Redis memory policy')).toMatch(/ FAIL +allkeys-lru: .* {2}→ {2}CONFIG SET maxmemory-policy noeviction/);
    expect(row(stdout, 'Projection lag')).toMatch(/ FAIL +members 1 events \/ 1\d\d\.\d s behind.* {2}→ {2}start the projections/);
    expect(row(stdout, 'SMS sender')).toMatch(/ FAIL +http gateway 127\.0\.0\.1:\d+ unreachable .* {2}→ {2}check SMS_GATEWAY_URL/);
    expect(lines(stdout).at(-1)).toMatch(/^\d+ ok, \d+ warnings?, 5 problems$/);
  });

  it('names read models built from another event store, with lending replay as the fix', async () => {
    const client = new Redis(redis.url);
    await client.set(readModelKeys('').storeIdentity, 'postgres:00000000-0000-4000-8000-000000000000');
    client.disconnect();
    const { code, stdout } = await runLending(['doctor'], healthy());
    expect(code).toBe(1);
    expect(row(stdout, 'Read models')).toMatch(/ FAIL +built from another event store \(postgres:00000000-0000-4000-8000-000000000000\); this one is postgres:[0-9a-f-]+.* {2}→ {2}lending replay rebuilds them/);
  });

  it('warns in production when backups would be written unencrypted, with the fix', async () => {
    const { BACKUP_ENCRYPTION_KEY: _key, ...withoutKey } = healthy();
    const { stdout } = await runLending(['doctor'], withoutKey);
    expect(row(stdout, 'Backup encryption')).toMatch(/ WARN +BACKUP_ENCRYPTION_KEY is not set: lending backup writes every member’s personal data in the clear {2}→ {2}set BACKUP_ENCRYPTION_KEY to 32 random bytes/);
    const development = await runLending(['doctor'], { ...withoutKey, NODE_ENV: 'development' });
    expect(row(development.stdout, 'Backup encryption')).toMatch(/ ok +BACKUP_ENCRYPTION_KEY is not set: .* \(outside production\)/);
  });
});

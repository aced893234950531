import { createPublicKey, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import pg from 'pg';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModelKeys } from '@honeylend/contracts';
import { openEventStore } from '@honeylend/eventstore';
import { deleteKeys } from '../../../projections/src/testing/redisSnapshot.js';
import { verifyBackup } from '../backup/restoreBackup.js';
import { writeBackup } from '../backup/writeBackup.js';
import { acceptDisclosure, borrowerWithPendingLoan, pendingWithdrawal, superadminToken } from '../testing/admins.js';
import { disburse, registerBorrower, verifyBorrower } from '../testing/borrowers.js';
import { runLending } from '../testing/lendingCli.js';
import { REDIS_URL, startTestSystem, uniquePhone, type TestSystem } from '../testing/testSystem.js';

const POSTGRES_URL = (process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test').replace(/\?.*$/, '');
const id = randomBytes(4).toString('hex');
const schemas = [`backup_${id}_a`, `backup_${id}_b`];
const work = mkdtempSync(join(tmpdir(), 'honeylend-backup-'));
const prefixes = [`test-${randomUUID()}:`, `test-${randomUUID()}:`];
let system: TestSystem;
const redis = new Redis(REDIS_URL);

/**
 * Every read-model key by its name under the prefix, with its content — but the change feed (a
 * replay keeps it) and the identity of the store the read models were built from (a restored log
 * is another store: compared apart).
 */
async function readModels(prefix: string): Promise<Record<string, unknown>> {
  const apart = new Set([readModelKeys(prefix).changes, readModelKeys(prefix).storeIdentity]);
  const keys = (await redis.keys(`${prefix}rm:*`)).filter((key) => !apart.has(key)).sort();
  const snapshot: Record<string, unknown> = {};
  for (const key of keys) {
    const type = await redis.type(key);
    snapshot[key.slice(prefix.length)] =
      type === 'string' ? await redis.get(key) : type === 'hash' ? await redis.hgetall(key) : type === 'zset' ? await redis.zrange(key, 0, -1, 'WITHSCORES') : type === 'set' ? (await redis.smembers(key)).sort() : type;
  }
  return snapshot;
}

/** The system's audit signing key, as the operator's environment carries it: it signs the backups and checks them and the checkpoints inside. */
const signingKeyText = () => system.auditSigningKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');
const env = (eventStoreUrl: string, keyPrefix = prefixes[0]) => ({ EVENTSTORE_URL: eventStoreUrl, REDIS_URL, REDIS_KEY_PREFIX: keyPrefix, LOG_LEVEL: 'warn', DATA_DIR: work, AUDIT_SIGNING_KEY: signingKeyText() });
const postgres = (schema: string) => `${POSTGRES_URL}?schema=${schema}`;
const linesOf = (file: string) => gunzipSync(readFileSync(file)).toString('utf8').trimEnd().split('\n');

/** A log with everything a busy day writes: registrations, profiles and documents, loans, decisions, money in and out, notifications. */
async function busyDay(): Promise<void> {
  const admin = await superadminToken(system);
  for (let i = 0; i < 4; i++) {
    const { borrower, loan } = await borrowerWithPendingLoan(system, `Borrower ${i}`, 80_000 + i * 10_000);
    if (i % 2 === 0) {
      const decided = await system.request('PUT', `/api/admin/loans/${loan.id}`, { token: admin, body: { status: 'approved', message: 'Approved' } });
      expect(decided.status).toBe(200);
      await acceptDisclosure(system, borrower.token, loan.id);
      await pendingWithdrawal(system, borrower, 1_000 + i);
    }
    await system.request('POST', '/api/admin/notifications', { token: admin, body: { userId: borrower.id, title: 'Hello', message: `Message ${i}` } });
  }
  const saver = await registerBorrower(system, 'Teodora Alonso');
  await verifyBorrower(system, saver);
  await disburse(system, saver, 250_000);
  await pendingWithdrawal(system, saver, 1_500);
}

beforeAll(async () => {
  system = await startTestSystem({ eventStoreUrl: `pglite:${join(work, 'source')}` });
  await busyDay();
}, 180_000);

afterAll(async () => {
  await system?.stop();
  for (const prefix of prefixes) await deleteKeys(redis, prefix);
  redis.disconnect();
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
  rmSync(work, { recursive: true, force: true });
});

describe('lending backup and lending restore', () => {
  it('back up a consistent log while commands keep arriving', async () => {
    let registering = true;
    let registered = 0;
    const arriving = (async () => {
      while (registering) {
        await system.request('POST', '/api/auth/register', { body: { phone: uniquePhone(), password: 'Sampaguita#2026', fullName: 'Late Arrival' } });
        registered += 1;
      }
    })();
    const registrationsAfter = async (count: number) => {
      while (registered <= count) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    const file = join(work, 'during.ndjson.gz');
    // Registrations are flowing before the backup starts and go on after it ends (argon2 makes each
    // one slow on a loaded machine, so a fixed head start is not enough); the second to finish after
    // the backup was started after it.
    await registrationsAfter(0);
    const result = await writeBackup(system.store, file, { signingKey: system.auditSigningKey });
    await registrationsAfter(registered + 1);
    registering = false;
    await arriving;

    expect(result.events).toBeGreaterThan(60);
    // Exactly the log as it stood at the backup's head, though more was appended meanwhile.
    expect(await system.store.headPosition()).toBeGreaterThan(result.lastPosition);
    const verified = await verifyBackup(file, { trustedKeys: [createPublicKey(system.auditSigningKey)] });
    expect(verified).toMatchObject({ events: result.events, lastPosition: result.lastPosition });
    const stored = await system.store.readAll({ limit: result.events });
    const backedUp = linesOf(file)
      .slice(1, -1)
      .map((line) => JSON.parse(line));
    expect(backedUp.map((event) => [event.id, event.position, event.createdAt])).toEqual(stored.map((event) => [event.id, event.position, event.createdAt]));
    expect(verified.header.headPosition).toBe(result.lastPosition);
  });

  it('round-trip a busy log PGlite → PostgreSQL → PGlite with equal read models after lending replay', async () => {
    await system.api.deps.progress.waitFor(await system.store.headPosition(), 10_000);
    const live = await readModels(system.keyPrefix);
    expect(Object.keys(live).length).toBeGreaterThan(30);
    const first = join(work, 'first.ndjson.gz');
    const source = await writeBackup(system.store, first, { signingKey: system.auditSigningKey });

    // PGlite → PostgreSQL, through the command an operator runs.
    const restored = await runLending(['restore', first], env(postgres(schemas[0])));
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(`restored ${source.events} events`);
    expect(restored.stdout).toContain('positions kept');
    expect(restored.stdout).toContain('lending replay');
    const replayed = await runLending(['replay'], env(postgres(schemas[0]), prefixes[0]));
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(await readModels(prefixes[0])).toEqual(live);
    expect(await redis.get(readModelKeys(prefixes[0]).storeIdentity)).toMatch(/^postgres:/);

    // PostgreSQL → PGlite.
    const second = join(work, 'second.ndjson.gz');
    const backedUp = await runLending(['backup', second], env(postgres(schemas[0])));
    expect(backedUp.code, backedUp.stderr).toBe(0);
    expect(backedUp.stdout).toContain(`backed up ${source.events} events`);
    const back = await runLending(['restore', second], env(`pglite:${join(work, 'returned')}`));
    expect(back.code, back.stderr).toBe(0);
    const replayedBack = await runLending(['replay'], env(`pglite:${join(work, 'returned')}`, prefixes[1]));
    expect(replayedBack.code, replayedBack.stderr).toBe(0);
    expect(await readModels(prefixes[1])).toEqual(live);
    expect(await redis.get(readModelKeys(prefixes[1]).storeIdentity)).toMatch(/^pglite:/);

    // The two backups hold the same events (jsonb may order an object's keys differently: compared as values).
    const events = (file: string) =>
      linesOf(file)
        .slice(1, -1)
        .map((line) => JSON.parse(line));
    expect(events(second)).toEqual(events(first));
  }, 180_000);

  it('refuse a store that already holds events, and a backup that was cut or changed, writing nothing', async () => {
    const first = join(work, 'first.ndjson.gz');
    const again = await runLending(['restore', first], env(postgres(schemas[0])));
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^lending: the event store at EVENTSTORE_URL already holds events \(head position \d+\); restore only into an empty store\n$/);

    const lines = linesOf(first);
    const changed = join(work, 'changed.ndjson.gz');
    const registered = lines.findIndex((line) => line.includes('"type":"MemberRegistered"'));
    const edited = lines.map((line, i) => (i === registered ? line.replace(/"fullName":"[^"]*"/, '"fullName":"Someone Else"') : line));
    expect(edited[registered]).not.toBe(lines[registered]);
    writeFileSync(changed, gzipSync(`${edited.join('\n')}\n`));
    const cut = join(work, 'cut.ndjson.gz');
    writeFileSync(cut, gzipSync(`${lines.slice(0, -5).join('\n')}\n`));
    const gap = join(work, 'gap.ndjson.gz');
    writeFileSync(gap, gzipSync(`${lines.filter((_, i) => i !== 2).join('\n')}\n`));

    for (const [file, reason] of [
      [changed, /line \d+ \(position \d+, member-\S+ #0\): does not match its hash: the event was changed after it was recorded/],
      [cut, /cut short/],
      // The log is hash-chained: a missing event breaks the chain at the next one, before the count is reached.
      [gap, /line \d+ \(position \d+, .+\): its prevHash is not the hash of the event before it: the chain is broken here/],
    ] as const) {
      const refused = await runLending(['restore', file], env(postgres(schemas[1])));
      expect(refused.code, file).toBe(1);
      expect(refused.stderr).toMatch(reason);
      const target = await openEventStore(postgres(schemas[1]));
      expect(await target.headPosition()).toBe(0);
      await target.close();
    }
  }, 120_000);
});

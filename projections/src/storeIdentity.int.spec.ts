import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readModelKeys } from '@honeylend/contracts';
import { PgliteEventStore, PostgresEventStore, storeIdentityOf, type EventStore } from '@honeylend/eventstore';
import { membersProjection } from './members/membersProjection.js';
import { ProjectionRunner } from './projectionRunner.js';
import { ReadModelsOfAnotherStore } from './readModelsOfAnotherStore.js';
import { rebuildReadModels } from './rebuild.js';
import { deleteKeys } from './testing/redisSnapshot.js';

/**
 * The read models record which event store their checkpoints belong to, and the projections stop
 * (telling the operator to run `lending replay`) rather than apply one store's events after
 * another store's positions: real Redis, real PGlite and PostgreSQL stores.
 */
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const prefix = `test-${randomUUID()}:`;
const keys = readModelKeys(prefix);
const silent = { info() {}, warn() {}, error() {} };
const opened: EventStore[] = [];
const schemas: string[] = [];

async function pglite(): Promise<EventStore> {
  const store = await PgliteEventStore.open('memory');
  opened.push(store);
  return store;
}

/** Registers a member in the store: one event at the next position. */
async function register(store: EventStore): Promise<string> {
  const memberId = randomUUID();
  const data = {
    memberId,
    phone: `+63917${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`,
    fullName: 'Maria Santos',
    email: null,
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
    registeredAt: '2026-11-22T08:00:00.000Z',
    registeredBy: 'self',
  };
  await store.append(`member-${memberId}`, [{ id: randomUUID(), type: 'MemberRegistered', data }], { expectedRevision: 'no_stream' });
  return memberId;
}

const runnerOn = (store: EventStore) => new ProjectionRunner({ store, redis, keys, projections: [membersProjection], logger: silent });
const rebuildFrom = (store: EventStore) => rebuildReadModels({ store, redis, keyPrefix: prefix, projections: [membersProjection], logger: silent });

beforeEach(() => deleteKeys(redis, prefix));
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});
afterAll(async () => {
  await deleteKeys(redis, prefix);
  redis.disconnect();
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
});

describe('the store identity of the read models', () => {
  it('is recorded with the first checkpoint: the adapter and the id kept in the store', async () => {
    const store = await pglite();
    await register(store);
    await runnerOn(store).catchUp();
    expect(await redis.get(keys.storeIdentity)).toBe(`pglite:${await store.storeId()}`);
    expect(await redis.get(keys.storeIdentity)).toBe(await storeIdentityOf(store));
  });

  it('stops the projections of another store, applying nothing, with a message to run lending replay; the replay then lets them go on', async () => {
    const before = await pglite();
    for (let i = 0; i < 3; i++) await register(before);
    const beforeRunner = runnerOn(before);
    await beforeRunner.catchUp();
    expect(await redis.get(keys.checkpoint)).toBe('3');

    // EVENTSTORE_URL now names another store, Redis is kept. Its positions 1 and 2 are behind checkpoint 3.
    const after = await pglite();
    const [first, second] = [await register(after), await register(after)];
    const stopped = await runnerOn(after)
      .catchUp()
      .catch((error: unknown) => error);
    expect(stopped).toBeInstanceOf(ReadModelsOfAnotherStore);
    expect((stopped as Error).message).toContain(await storeIdentityOf(before));
    expect((stopped as Error).message).toContain('run `lending replay`');
    expect(await redis.get(keys.member(first))).toBeNull();
    expect(await redis.get(keys.checkpoint)).toBe('3');

    await rebuildFrom(after);
    expect(await redis.get(keys.storeIdentity)).toBe(await storeIdentityOf(after));
    const third = await register(after);
    await runnerOn(after).catchUp();
    for (const memberId of [first, second, third]) expect(await redis.get(keys.member(memberId))).not.toBeNull();

    // A runner still following the old store stops at its next batch instead of mixing the two.
    await register(before);
    const lateBatch = await before.readAll({ from: 3 });
    await expect(beforeRunner.applyBatch(lateBatch)).rejects.toBeInstanceOf(ReadModelsOfAnotherStore);
  });

  it('stops the projections when the checkpoint lies past the end of the log: the store restored from an older copy, same id', async () => {
    const schema = `es_restored_${randomBytes(5).toString('hex')}`;
    const copy = `${schema}_copy`;
    schemas.push(schema, copy);
    const live = await PostgresEventStore.open(DATABASE_URL, { schema });
    opened.push(live);
    await register(live);
    // A backup of the whole schema taken now (what restoring a database dump brings back).
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA "${copy}"`);
      for (const table of ['events', 'store_identity']) {
        await admin.query(`CREATE TABLE "${copy}".${table} (LIKE "${schema}".${table} INCLUDING ALL)`);
        await admin.query(`INSERT INTO "${copy}".${table} SELECT * FROM "${schema}".${table}`);
      }
    } finally {
      await admin.end();
    }
    await register(live);
    await register(live);
    await runnerOn(live).catchUp();

    const restored = await PostgresEventStore.open(DATABASE_URL, { schema: copy });
    opened.push(restored);
    expect(await restored.storeId()).toBe(await live.storeId());
    const stopped = await runnerOn(restored)
      .catchUp()
      .catch((error: unknown) => error);
    expect(stopped).toBeInstanceOf(ReadModelsOfAnotherStore);
    expect((stopped as Error).message).toMatch(/position 3, past the end of event store postgres:.* \(its newest event is at 1\)/);
  });

  it('takes read models built before identities were recorded as this store’s when they fit in its log, and refuses them when they do not', async () => {
    const store = await pglite();
    for (let i = 0; i < 3; i++) await register(store);
    await runnerOn(store).catchUp();
    await redis.del(keys.storeIdentity);
    const newcomer = await register(store);
    await runnerOn(store).catchUp();
    expect(await redis.get(keys.member(newcomer))).not.toBeNull();
    expect(await redis.get(keys.storeIdentity)).toBe(await storeIdentityOf(store));

    await redis.del(keys.storeIdentity);
    const smaller = await pglite();
    await register(smaller);
    await expect(runnerOn(smaller).catchUp()).rejects.toBeInstanceOf(ReadModelsOfAnotherStore);
  });
});

import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIVACY_NOTICE_VERSION } from '@honeylend/contracts';
import { REDIS_URL, startTestSystem, uniquePhone, type TestSystem } from '../testing/testSystem.js';
import { registerBorrower } from '../testing/borrowers.js';

/**
 * Pub/sub is one namespace for the whole Redis server, whatever database a connection selected. Two
 * systems on one server, in databases 11 and 12 under one key prefix, must not hear each other:
 * a checkpoint announced by one would answer the other's read-your-writes waits from read models
 * that do not hold the write yet.
 */
function inDatabase(db: number): string {
  const url = new URL(REDIS_URL);
  url.pathname = `/${db}`;
  return url.toString();
}

const keyPrefix = `test-${randomUUID()}:`;
let quiet: TestSystem;
let busy: TestSystem;
let quietChannels: string[];
const observer = new Redis(REDIS_URL);
const heard: string[] = [];

beforeAll(async () => {
  quiet = await startTestSystem({ redisUrl: inDatabase(12), keyPrefix });
  // Its read models now stand still: only a message from elsewhere could move its checkpoint.
  await quiet.stopProjections();
  quietChannels = (await observer.call('PUBSUB', 'CHANNELS', `${keyPrefix}*`)) as string[];
  observer.on('pmessage', (_pattern: string, channel: string) => heard.push(channel));
  await observer.psubscribe(`${keyPrefix}*`);
  busy = await startTestSystem({ redisUrl: inDatabase(11), keyPrefix });
});
afterAll(async () => {
  observer.disconnect();
  await busy?.stop();
  await quiet?.stop();
});

describe('two systems on one Redis server, in different databases under one key prefix', () => {
  it("hear none of each other's pub/sub messages: the other's checkpoints never answer a read-your-writes wait", async () => {
    expect(quietChannels.length).toBeGreaterThan(0);
    const quietCheckpoint = quiet.api.deps.progress.checkpoint;

    // The busy system writes well past every position the quiet one will reach, and one of its borrowers signs out.
    for (let i = 0; i < 3; i++) await registerBorrower(busy);
    const leaving = await registerBorrower(busy);
    expect((await busy.request('POST', '/api/auth/logout', { token: leaving.token })).status).toBe(200);
    expect(busy.api.deps.progress.checkpoint).toBeGreaterThan(quietCheckpoint + 5);

    // Both kinds of announcement went out, and none on a channel the quiet system listens on.
    expect(heard.some((channel) => channel.includes('rm:progress'))).toBe(true);
    expect(heard.some((channel) => channel.includes('auth:revoked-tokens'))).toBe(true);
    expect(heard.filter((channel) => quietChannels.includes(channel))).toEqual([]);
    expect(quiet.api.deps.progress.checkpoint).toBe(quietCheckpoint);

    // A registration on the quiet system, whose projections are stopped, says its user is not shown yet.
    const registered = await quiet.request('POST', '/api/auth/register', {
      body: { phone: uniquePhone(), password: 'Sampaguita#2026', fullName: 'Gabriela Silang', privacyNoticeVersion: PRIVACY_NOTICE_VERSION },
    });
    expect(registered.status).toBe(202);
    expect(registered.headers.get('x-read-model-lag')).toBe('pending');
  });
});

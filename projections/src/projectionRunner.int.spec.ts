import { randomUUID } from 'node:crypto';
import { createServer, Socket, type AddressInfo, type Server } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { readModelKeys } from '@honeylend/contracts';
import type { RecordedEvent } from '@honeylend/eventstore';
import { ProjectionRunner } from './projectionRunner.js';
import { membersProjection } from './members/membersProjection.js';
import { deleteKeys } from './testing/redisSnapshot.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(REDIS_URL);
const prefix = `test-${randomUUID()}:`;
const keys = readModelKeys(prefix);
const silent = { info() {}, warn() {}, error() {} };
const at = '2026-11-22T08:00:00.000Z';

function registration(position: number): RecordedEvent {
  const memberId = randomUUID();
  return {
    id: randomUUID(),
    stream: `member-${memberId}`,
    type: 'MemberRegistered',
    data: {
      memberId,
      phone: `+6391712${String(position).padStart(5, '0')}`,
      fullName: 'Maria Santos',
      email: null,
      passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
      registeredAt: at,
      registeredBy: 'self',
    },
    metadata: {},
    revision: 0,
    position,
    createdAt: at,
  };
}

/**
 * A TCP hop in front of the real Redis that, once armed, lets the next write that runs a batch
 * (EVAL or EXEC) reach Redis, swallows Redis's answer and cuts the client off: Redis did the work,
 * the client never heard so. Later connections pass through untouched.
 */
async function answerLosingProxy(): Promise<{ url: string; armed: { value: boolean }; cuts: { value: number }; close(): Promise<void> }> {
  const target = new URL(REDIS_URL);
  const armed = { value: false };
  const cuts = { value: 0 };
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = new Socket();
    sockets.add(client).add(upstream);
    let swallowing = false;
    upstream.connect(Number(target.port || 6379), target.hostname);
    client.on('data', (chunk) => {
      upstream.write(chunk);
      if (armed.value && /\r\n(EVAL|EXEC)\r\n/i.test(chunk.toString('latin1'))) {
        armed.value = false;
        swallowing = true;
        // Long enough for Redis to run the batch; its answer is dropped, then the client is cut off.
        setTimeout(() => {
          cuts.value++;
          client.destroy();
          upstream.destroy();
        }, 200);
      }
    });
    upstream.on('data', (chunk) => {
      if (!swallowing) client.write(chunk);
    });
    for (const socket of [client, upstream]) socket.on('error', () => undefined);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    armed,
    cuts,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

beforeEach(() => deleteKeys(redis, prefix));
afterAll(async () => {
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

describe('projection runner (real Redis)', () => {
  it('applies a batch once when Redis ran it but the answer was lost and the client re-sent it on a new connection', async () => {
    const proxy = await answerLosingProxy();
    // The client's defaults: reconnect, and re-send commands left unanswered by a dropped connection.
    const runnerRedis = new Redis(proxy.url, { maxRetriesPerRequest: null, retryStrategy: () => 50 });
    runnerRedis.on('error', () => undefined);
    try {
      const runner = new ProjectionRunner({ store: undefined as never, redis: runnerRedis, keys, projections: [membersProjection], logger: silent });
      await runner.applyBatch([registration(1)]);
      proxy.armed.value = true;
      const result = await runner.applyBatch([registration(2)]);
      expect(proxy.cuts.value).toBe(1);
      // The re-sent write found the checkpoint moved and did nothing; the batch was recomputed as already applied.
      expect(result).toEqual({ applied: 0, skipped: 1 });
      expect(await redis.hgetall(keys.memberStats)).toEqual({ total: '2', active: '2' });
      expect(await redis.get(keys.checkpoint)).toBe('2');
      expect(await redis.xlen(keys.changes)).toBe(2);
    } finally {
      runnerRedis.disconnect();
      await proxy.close();
    }
  });

  it('recomputes a batch when another runner moved the checkpoints after it read them', async () => {
    const runner = new ProjectionRunner({ store: undefined as never, redis, keys, projections: [membersProjection], logger: silent });
    const first = registration(1);
    const second = new ProjectionRunner({ store: undefined as never, redis: redis.duplicate(), keys, projections: [membersProjection], logger: silent });
    const results = await Promise.all([runner.applyBatch([first]), second.applyBatch([first])]);
    expect(results.map((r) => r.applied).sort()).toEqual([0, 1]);
    expect(await redis.hgetall(keys.memberStats)).toEqual({ total: '1', active: '1' });
  });
});

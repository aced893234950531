import { afterAll, describe, expect, it } from 'vitest';
import { createJobKeys } from '@honeylend/contracts';
import { readSmsOutbox } from '@honeylend/contracts/server';
import { capturingLogger } from '../testing/capturingLogger.js';
import { connectTestRedis, deleteKeysWithPrefix, uniqueKeyPrefix } from '../testing/redisForTests.js';
import { OutboxSmsSender } from './outboxSmsSender.js';

const prefix = uniqueKeyPrefix();
const keys = createJobKeys(prefix);
const redis = connectTestRedis();

afterAll(async () => {
  await deleteKeysWithPrefix(redis, prefix);
  await redis.quit();
});

describe('OutboxSmsSender (development)', () => {
  it('keeps texts newest first, capped, and logs the masked number but never the text', async () => {
    const logger = capturingLogger();
    let minute = 0;
    const clock = () => new Date(Date.UTC(2026, 10, 22, 2, minute++));
    const sender = new OutboxSmsSender(redis, keys, logger, clock, 3);
    for (const body of ['first 111111', 'second 222222', 'third 333333', 'fourth 444444']) await sender.send({ to: '+639171234567', body });

    expect(await readSmsOutbox(redis, keys)).toEqual([
      { to: '+639171234567', body: 'fourth 444444', createdAt: '2026-11-22T02:03:00.000Z' },
      { to: '+639171234567', body: 'third 333333', createdAt: '2026-11-22T02:02:00.000Z' },
      { to: '+639171234567', body: 'second 222222', createdAt: '2026-11-22T02:01:00.000Z' },
    ]);
    expect(logger.lines.map((line) => line.message)).toEqual(Array(4).fill('SMS to +63•••••4567 queued'));
    expect(logger.text()).not.toMatch(/first|second|third|fourth|1111|2222|3333|4444|9171234567/);
  });

  it('is read back for one number at a time', async () => {
    const sender = new OutboxSmsSender(redis, keys, capturingLogger());
    await sender.send({ to: '+639170000001', body: 'for one' });
    await sender.send({ to: '+639170000002', body: 'for two' });
    expect((await readSmsOutbox(redis, keys, { to: '+639170000001' })).map((entry) => entry.body)).toEqual(['for one']);
  });
});

import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { JOB_NAMES, RATES_REFRESH_EVERY_MS, notificationJobOptions, otpJobOptions, type NotificationJob } from '@honeylend/contracts';
import { readOtpDeliveryStatus, readRates, readSmsOutbox } from '@honeylend/contracts/server';
import { startWorkers } from './startWorkers.js';
import { capturingLogger } from './testing/capturingLogger.js';
import { eventually } from './testing/eventually.js';
import { answerJson, startLocalHttpServer, type LocalHttpServer } from './testing/localHttpServer.js';
import { TEST_REDIS_URL, connectTestRedis } from './testing/redisForTests.js';
import { otpJobFor, startTestWorkers, type TestWorkers } from './testing/workersFixture.js';

const servers: LocalHttpServer[] = [];
let system: TestWorkers | undefined;
afterEach(async () => {
  await system?.close();
  system = undefined;
  for (const server of servers.splice(0)) await server.close();
});

async function server(respond: Parameters<typeof startLocalHttpServer>[0]): Promise<LocalHttpServer> {
  const started = await startLocalHttpServer(respond);
  servers.push(started);
  return started;
}

describe('startWorkers', () => {
  it('fetches exchange rates at start and schedules a refresh every hour', async () => {
    const rates = { USD: 0.0171, EUR: 0.0158, GBP: 0.0135, JPY: 2.71, AUD: 0.0263, CAD: 0.0239, SGD: 0.0229, HKD: 0.1332 };
    const ratesService = await server((_request, response) => answerJson(response, 200, { result: 'success', base_code: 'PHP', rates }));
    system = await startTestWorkers({ env: { RATES_URL: ratesService.url } });
    const { redis, keys } = system;

    const answer = await eventually('live rates', async () => {
      const read = await readRates(redis, keys, new Date());
      return read.source === 'live' ? read : undefined;
    });
    expect(answer.rates).toEqual(rates);
    const schedulers = await system.ratesQueue.getJobSchedulers();
    expect(schedulers.map((scheduler) => [scheduler.key, scheduler.every])).toEqual([['rates-hourly', RATES_REFRESH_EVERY_MS]]);
  });

  it('texts a loan notification as "Honeylend: <title> — <message>", once per notification', async () => {
    system = await startTestWorkers();
    const notification: NotificationJob = {
      notificationId: randomUUID(),
      memberId: randomUUID(),
      phone: '+639181112222',
      title: 'Loan approved',
      message: 'Your loan LN-2026-000123 is approved.',
    };
    await system.notificationsQueue.add(JOB_NAMES.sendNotification, notification, notificationJobOptions(notification.notificationId));
    await system.notificationsQueue.add(JOB_NAMES.sendNotification, notification, notificationJobOptions(notification.notificationId));
    const { redis, keys } = system;
    const texts = await eventually('the notification text', async () => {
      const found = await readSmsOutbox(redis, keys, { to: notification.phone });
      return found.length > 0 ? found : undefined;
    });
    expect(texts.map((text) => text.body)).toEqual(['Honeylend: Loan approved — Your loan LN-2026-000123 is approved.']);
    await eventually('the job to complete', async () => ((await system?.notificationsQueue.getJobState(notification.notificationId)) === 'completed' ? true : undefined));
    expect(await readSmsOutbox(redis, keys, { to: notification.phone })).toHaveLength(1);
  });

  it('lets a running job finish when closing', async () => {
    let answerLater: (() => void) | undefined;
    const gateway = await server((_request, response) => {
      answerLater = () => answerJson(response, 200, {});
    });
    system = await startTestWorkers({ env: { SMS_SENDER: 'http', SMS_GATEWAY_URL: gateway.url, SMS_API_KEY: 'k' } });
    const job = otpJobFor();
    await system.otpQueue.add(JOB_NAMES.sendOtp, job, otpJobOptions(job.challengeId));
    await eventually('the send to start', async () => (answerLater ? true : undefined));

    const closing = system.workers.close();
    setTimeout(() => answerLater?.(), 200);
    await closing;
    expect((await readOtpDeliveryStatus(system.redis, system.keys, job.memberId))?.state).toBe('sent');
  });

  it('closes within 5 seconds even while a send hangs, leaving the job to be retried', async () => {
    const gateway = await server(() => {
      // never answers
    });
    system = await startTestWorkers({ env: { SMS_SENDER: 'http', SMS_GATEWAY_URL: gateway.url, SMS_API_KEY: 'k', SMS_TIMEOUT_MS: '60000' } });
    const job = otpJobFor();
    await system.otpQueue.add(JOB_NAMES.sendOtp, job, otpJobOptions(job.challengeId));
    await eventually('the send to start', async () => (gateway.requests.length > 0 ? true : undefined));

    const started = Date.now();
    await system.workers.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await system.otpQueue.getJobState(job.challengeId)).toBe('delayed');
    expect(await readOtpDeliveryStatus(system.redis, system.keys, job.memberId)).toMatchObject({ state: 'retrying', lastError: 'SMS send cancelled' });
  });

  it('honours the database index in REDIS_URL', async () => {
    const otherDatabase = `${TEST_REDIS_URL.replace(/\/\d+$/, '')}/5`;
    system = await startTestWorkers({ redisUrl: otherDatabase });
    const notification: NotificationJob = { notificationId: randomUUID(), memberId: randomUUID(), phone: '+639181113333', title: 'T', message: 'M' };
    await system.notificationsQueue.add(JOB_NAMES.sendNotification, notification, notificationJobOptions(notification.notificationId));
    const { redis, keys } = system;
    await eventually('the text in database 5', async () => ((await readSmsOutbox(redis, keys)).length > 0 ? true : undefined));

    const databaseZero = connectTestRedis(TEST_REDIS_URL.replace(/\/\d+$/, ''));
    try {
      expect(await databaseZero.exists(keys.smsOutbox)).toBe(0);
    } finally {
      await databaseZero.quit();
    }
  });

  it('refuses to start with the development outbox in production', async () => {
    const logger = capturingLogger();
    await expect(startWorkers({ redisUrl: TEST_REDIS_URL, env: { NODE_ENV: 'production', OTP_SECRET: 'p'.repeat(40) }, logger })).rejects.toThrow(/development only/);
  });

  it('refuses to start in production without an OTP secret', async () => {
    const env = { NODE_ENV: 'production', SMS_SENDER: 'http', SMS_GATEWAY_URL: 'http://127.0.0.1:9', SMS_API_KEY: 'k' };
    await expect(startWorkers({ redisUrl: TEST_REDIS_URL, env, logger: capturingLogger() })).rejects.toThrow('OTP_SECRET is required when NODE_ENV=production');
  });
});

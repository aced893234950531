import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { JOB_NAMES, otpJobOptions, type OtpJob } from '@honeylend/contracts';
import { readOtpDeliveryStatus, verifyOtp } from '@honeylend/contracts/server';
import { eventually } from '../testing/eventually.js';
import { answerJson, startLocalHttpServer, type LocalHttpServer } from '../testing/localHttpServer.js';
import { TEST_OTP_SECRET, otpJobFor, startTestWorkers, type TestWorkers } from '../testing/workersFixture.js';

const FAST_RETRIES = { backoff: { type: 'exponential' as const, delay: 10 } };

describe('OTP delivery through the HTTP gateway', () => {
  // Which requests fail is decided per test; the gateway answers 200 otherwise.
  let failingRequests = new Set<number>();
  let gateway: LocalHttpServer;
  let system: TestWorkers;
  beforeAll(async () => {
    gateway = await startLocalHttpServer((_request, response, index) => answerJson(response, failingRequests.has(index) ? 500 : 200, {}));
    system = await startTestWorkers({ env: { SMS_SENDER: 'http', SMS_GATEWAY_URL: gateway.url, SMS_API_KEY: 'test-key', SMS_SENDER_NAME: 'HONEYLEND' } });
  });
  afterEach(() => {
    gateway.requests.length = 0;
    failingRequests = new Set();
  });
  afterAll(async () => {
    await system?.close();
    await gateway?.close();
  });

  const codeSentIn = (index: number) => (JSON.parse(gateway.requests[index]?.body ?? '{}') as { message?: string }).message?.match(/\d{6}/)?.[0] ?? '';
  const verify = (job: OtpJob, code: string) =>
    verifyOtp(system.redis, system.keys, { memberId: job.memberId, challengeId: job.challengeId, amountCentavos: job.amountCentavos, code, now: new Date(), secret: TEST_OTP_SECRET });

  it('retries a failed send with a fresh code, and only the delivered code works', async () => {
    failingRequests = new Set([0]);
    const job = otpJobFor();
    await system.otpQueue.add(JOB_NAMES.sendOtp, job, { ...otpJobOptions(job.challengeId), ...FAST_RETRIES });
    const status = await eventually('a delivered code', async () => {
      const found = await readOtpDeliveryStatus(system.redis, system.keys, job.memberId);
      return found?.state === 'sent' ? found : undefined;
    });

    expect(gateway.requests).toHaveLength(2);
    const [undelivered, delivered] = [codeSentIn(0), codeSentIn(1)];
    expect(delivered).toMatch(/^\d{6}$/);
    expect(status).toMatchObject({ challengeId: job.challengeId, failures: 0, lastError: 'SMS gateway answered 500', sentTo: '+63•••••4567' });
    expect(status.lastErrorAt).not.toBeNull();
    if (undelivered !== delivered) expect(await verify(job, undelivered)).toBe('invalid');
    expect(await verify(job, delivered)).toBe('ok');
  });

  it('shows admins a failed delivery once every attempt has failed', async () => {
    failingRequests = new Set([0, 1, 2]);
    const job = otpJobFor();
    await system.otpQueue.add(JOB_NAMES.sendOtp, job, { ...otpJobOptions(job.challengeId), ...FAST_RETRIES, attempts: 3 });
    const status = await eventually('the failed delivery', async () => {
      const found = await readOtpDeliveryStatus(system.redis, system.keys, job.memberId);
      return found?.state === 'failed' ? found : undefined;
    });
    expect(status).toMatchObject({ challengeId: job.challengeId, failures: 3, lastError: 'SMS gateway answered 500', lastSentAt: null });
    expect(gateway.requests).toHaveLength(3);
    expect(system.logger.lines.filter((line) => line.message === 'OTP delivery failed' && line.fields?.challengeId === job.challengeId).map((line) => line.fields?.final)).toEqual([false, false, true]);
  });

  it('reports retrying between failed attempts', async () => {
    failingRequests = new Set([0]);
    const job = otpJobFor();
    // A long backoff holds the job between its attempts, where admins would look.
    await system.otpQueue.add(JOB_NAMES.sendOtp, job, { ...otpJobOptions(job.challengeId), backoff: { type: 'exponential', delay: 60_000 } });
    const status = await eventually('the first failure', async () => (await readOtpDeliveryStatus(system.redis, system.keys, job.memberId)) ?? undefined);
    expect(status).toMatchObject({ state: 'retrying', failures: 1 });
    await system.otpQueue.remove(job.challengeId);
  });
});

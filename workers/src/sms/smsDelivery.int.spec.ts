import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { JOB_NAMES, notificationJobOptions, otpJobOptions, type OtpJob } from '@honeylend/contracts';
import { readOtpDeliveryStatus, verifyOtp } from '@honeylend/contracts/server';
import { eventually } from '../testing/eventually.js';
import { answerJson, startLocalHttpServer, type LocalHttpServer } from '../testing/localHttpServer.js';
import { TEST_OTP_SECRET, otpJobFor, startTestWorkers, type TestWorkers } from '../testing/workersFixture.js';

const FAST_RETRIES = { backoff: { type: 'exponential' as const, delay: 10 } };

/**
 * A job can run again after its text reached the gateway (its worker died before the job was
 * marked done). These tests drive the two cases through real workers and a real HTTP gateway:
 * the outcome of a send is unknown (the gateway took the text but its answer never came back),
 * and the text is known to be accepted but the job runs again.
 */
describe('SMS delivery across re-runs of a job', () => {
  // Per test: which requests the gateway leaves unanswered (the sender times out) or refuses.
  let unanswered = new Set<number>();
  let refused = new Set<number>();
  let gateway: LocalHttpServer;
  let system: TestWorkers;
  beforeAll(async () => {
    gateway = await startLocalHttpServer((_request, response, index) => {
      if (unanswered.has(index)) return;
      answerJson(response, refused.has(index) ? 500 : 200, {});
    });
    system = await startTestWorkers({ env: { SMS_SENDER: 'http', SMS_GATEWAY_URL: gateway.url, SMS_API_KEY: 'test-key', SMS_TIMEOUT_MS: '300' } });
  });
  afterEach(() => {
    gateway.requests.length = 0;
    unanswered = new Set();
    refused = new Set();
  });
  afterAll(async () => {
    await system?.close();
    await gateway?.close();
  });

  const keyOf = (index: number) => gateway.requests[index]?.headers['idempotency-key'];
  const codeIn = (index: number) => /code is (\d{6})/.exec(gateway.requests[index]?.body ?? '')?.[1] ?? '';
  const verify = (job: OtpJob, code: string) =>
    verifyOtp(system.redis, system.keys, { memberId: job.memberId, challengeId: job.challengeId, amountCentavos: job.amountCentavos, code, now: new Date(), secret: TEST_OTP_SECRET });
  const sent = (job: OtpJob) => eventually('the code to be sent', async () => ((await readOtpDeliveryStatus(system.redis, system.keys, job.memberId))?.state === 'sent' ? true : undefined));

  it('repeats a send whose outcome is unknown as the same text under the same idempotency key, and that code works', async () => {
    unanswered = new Set([0]);
    const job = otpJobFor();
    await system.otpQueue.add(JOB_NAMES.sendOtp, job, { ...otpJobOptions(job.challengeId), ...FAST_RETRIES });
    await sent(job);
    expect(gateway.requests).toHaveLength(2);
    expect(keyOf(0)).toBe(`otp:${job.challengeId}:0`);
    expect(keyOf(1)).toBe(keyOf(0));
    expect(gateway.requests[1].body).toBe(gateway.requests[0].body);
    expect(await verify(job, codeIn(0))).toBe('ok');
  });

  it('sends a refused text again as a new message: a fresh code under a new key', async () => {
    refused = new Set([0]);
    const job = otpJobFor();
    await system.otpQueue.add(JOB_NAMES.sendOtp, job, { ...otpJobOptions(job.challengeId), ...FAST_RETRIES });
    await sent(job);
    expect([keyOf(0), keyOf(1)]).toEqual([`otp:${job.challengeId}:0`, `otp:${job.challengeId}:1`]);
    expect(codeIn(1)).not.toBe(codeIn(0));
    expect(await verify(job, codeIn(1))).toBe('ok');
  });

  it('texts nothing when a job whose text was accepted runs again', async () => {
    const job = otpJobFor();
    const notificationId = randomUUID();
    const notification = { notificationId, memberId: job.memberId, phone: job.phone, title: 'Loan approved', message: 'Your loan was approved.' };
    await system.otpQueue.add(JOB_NAMES.sendOtp, job, otpJobOptions(job.challengeId));
    await system.notificationsQueue.add(JOB_NAMES.sendNotification, notification, notificationJobOptions(notificationId));
    await eventually('both texts', async () => (gateway.requests.length === 2 ? true : undefined));
    const completed = async () =>
      eventually('both jobs done', async () => ((await system.otpQueue.getJobState(job.challengeId)) === 'completed' && (await system.notificationsQueue.getJobState(notificationId)) === 'completed' ? true : undefined));
    await completed();

    // As BullMQ would after the worker died between the send and the acknowledgement: the same jobs run again.
    await system.otpQueue.remove(job.challengeId);
    await system.notificationsQueue.remove(notificationId);
    await system.otpQueue.add(JOB_NAMES.sendOtp, job, otpJobOptions(job.challengeId));
    await system.notificationsQueue.add(JOB_NAMES.sendNotification, notification, notificationJobOptions(notificationId));
    await completed();
    expect(gateway.requests).toHaveLength(2);
    expect(await verify(job, codeIn(gateway.requests.findIndex((request) => request.body.includes('withdrawal code'))))).toBe('ok');
  });
});

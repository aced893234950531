import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_CODE_QUEUE, JOB_NAMES, SEND_ACCOUNT_CODE_JOB, accountCodeJobOptions, notificationJobOptions, otpJobOptions, readModelKeys, type AccountCodeJob, type NotificationJob } from '@honeylend/contracts';
import { readSmsOutbox } from '@honeylend/contracts/server';
import { eventually } from '../testing/eventually.js';
import { answerJson, startLocalHttpServer, type LocalHttpServer } from '../testing/localHttpServer.js';
import { otpJobFor, startTestWorkers, type TestWorkers } from '../testing/workersFixture.js';

/*
 * The demo `lending seed` writes is made of invented people (MemberRegistered.demo, on their read
 * model): no text of any kind reaches the SMS gateway for them, while real members' texts do.
 */
describe('texts to the demo’s people', () => {
  let gateway: LocalHttpServer;
  let system: TestWorkers;
  let accountCodes: Queue;
  beforeAll(async () => {
    gateway = await startLocalHttpServer((_request, response) => answerJson(response, 200, {}));
    system = await startTestWorkers({ env: { SMS_SENDER: 'http', SMS_GATEWAY_URL: gateway.url, SMS_API_KEY: 'test-key', SMS_SENDER_NAME: 'HONEYLEND' } });
    accountCodes = new Queue(ACCOUNT_CODE_QUEUE, { connection: system.redis, prefix: system.keys.queuePrefix });
  });
  afterAll(async () => {
    await accountCodes?.close();
    await system?.close();
    await gateway?.close();
  });

  /** The member's read model as the members projection writes it, marked as the demo's or not. */
  const member = async (phone: string, demo: boolean) => {
    const id = randomUUID();
    const doc = { id, phone, fullName: demo ? 'Demo Borrower' : 'Real Borrower', status: 'active', phoneVerified: true, ...(demo ? { demo: true } : {}) };
    await system.redis.set(readModelKeys(system.keys.prefix).member(id), JSON.stringify(doc));
    return { id, phone };
  };
  const completed = (queue: Queue, jobId: string) => eventually(`job ${jobId} to complete`, async () => ((await queue.getJobState(jobId)) === 'completed' ? true : undefined));

  it('sends no notification, withdrawal code or account code of a demo member through the gateway, and still texts a real member', async () => {
    const demo = await member('+639175560191', true);
    const real = await member('+639175560192', false);
    const notification = (to: { id: string; phone: string }): NotificationJob => ({ notificationId: randomUUID(), memberId: to.id, phone: to.phone, title: 'Loan update', message: 'Your loan is approved.' });
    const forDemo = notification(demo);
    const otp = otpJobFor({ memberId: demo.id, phone: demo.phone });
    const code: AccountCodeJob = { challengeId: randomUUID(), memberId: demo.id, phone: demo.phone, purpose: 'password-reset' };
    await system.notificationsQueue.add(JOB_NAMES.sendNotification, forDemo, notificationJobOptions(forDemo.notificationId));
    await system.otpQueue.add(JOB_NAMES.sendOtp, otp, otpJobOptions(otp.challengeId));
    await accountCodes.add(SEND_ACCOUNT_CODE_JOB, code, accountCodeJobOptions(code.challengeId));
    await completed(system.notificationsQueue, forDemo.notificationId);
    await completed(system.otpQueue, otp.challengeId);
    await completed(accountCodes, code.challengeId);
    const forReal = notification(real);
    await system.notificationsQueue.add(JOB_NAMES.sendNotification, forReal, notificationJobOptions(forReal.notificationId));
    await completed(system.notificationsQueue, forReal.notificationId);

    const texted = gateway.requests.map((request) => (JSON.parse(request.body) as { to: string }).to);
    expect(texted).toEqual([real.phone]);
    // The demo's texts are kept where a demo can read them, and the log says why they went nowhere else.
    expect(await readSmsOutbox(system.redis, system.keys, { to: demo.phone })).toHaveLength(3);
    expect(system.logger.lines.filter((line) => line.message === 'text to a demo member kept in the outbox, not sent')).toHaveLength(3);
  });
});

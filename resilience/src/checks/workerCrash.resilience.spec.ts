import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_NAMES, QUEUE_NAMES, createJobKeys, notificationJobOptions, otpJobOptions, type NotificationJob, type OtpJob } from '@honeylend/contracts';
import { verifyOtp } from '@honeylend/contracts/server';
import { reportFigure } from '../support/figures.js';
import { scaled } from '../support/scale.js';
import { startRecordingSmsGateway, type RecordingSmsGateway } from '../support/smsGateway.js';
import { spawnLending, type LendingProcess } from '../support/lendingProcess.js';
import { SplitSystem } from '../support/splitSystem.js';
import { eventually, sleep } from '../support/waiting.js';

/**
 * Two `lending workers` processes share the queues, as a deployment with two worker nodes does;
 * one of them is SIGKILLed while OTP and notification jobs are queued and in flight, and
 * restarted each time. Half of the kills land in the worst moment — the gateway has accepted a
 * text and the worker dies before the job is marked done — the others just after the gateway
 * answered, while the worker records the send. BullMQ hands the interrupted jobs to the restarted
 * workers; the gateway (a real HTTP server here, delivering once per idempotency key as real
 * gateways do) sees what each phone received. Every job must complete, each phone get exactly one
 * text, and each OTP text carry the code the member's challenge accepts.
 */
const JOBS_PER_QUEUE = scaled(40, 200);
const KILLS = scaled(3, 10);
const CHECK = '8 worker crash';

let gateway: RecordingSmsGateway;
let system: SplitSystem;
let queueRedis: Redis;
/** The second worker node, never killed. */
let steadyWorkers: LendingProcess | undefined;

let kills = 0;
let killing = false;
/** Gateway request indexes at which a kill happens, spread at random over the first 80 % of the texts. */
const killAtRequest = Array.from({ length: KILLS }, () => Math.floor((0.1 + 0.7 * Math.random()) * JOBS_PER_QUEUE * 2)).sort((a, b) => a - b);

async function killAndRestartWorkers(): Promise<void> {
  await system.kill9('workers');
  kills += 1;
  await system.start('workers', { NODE_NAME: 'workers-killed' });
  killing = false;
}

beforeAll(async () => {
  gateway = await startRecordingSmsGateway({
    // Slow enough that many texts are in flight at any moment.
    answerDelayMs: 150,
    beforeAnswer: async (_request, index) => {
      if (killing || kills >= KILLS || index < killAtRequest[kills]) return;
      killing = true;
      if (kills % 2 === 0) {
        // Accepted and delivered, not yet answered: the worker dies not knowing the text went out.
        await killAndRestartWorkers();
      } else {
        // Answered: the worker dies while it records the send or acknowledges the job.
        setTimeout(() => void killAndRestartWorkers(), Math.random() * 30);
      }
    },
  });
  system = new SplitSystem({ env: { SMS_SENDER: 'http', SMS_GATEWAY_URL: gateway.url, SMS_API_KEY: gateway.apiKey } });
  queueRedis = new Redis(system.redisUrl, { maxRetriesPerRequest: null });
});
afterAll(async () => {
  await steadyWorkers?.stop();
  queueRedis?.disconnect();
  await system?.cleanup();
  await gateway?.close();
});

describe('worker crash', () => {
  it(`${KILLS} SIGKILLs of one of two worker nodes during ${JOBS_PER_QUEUE} OTP and ${JOBS_PER_QUEUE} notification jobs: every job completes, every text is sent once`, async () => {
    const keys = createJobKeys(system.keyPrefix);
    const otpQueue = new Queue(QUEUE_NAMES.otp, { connection: queueRedis, prefix: keys.queuePrefix });
    const notificationQueue = new Queue(QUEUE_NAMES.notifications, { connection: queueRedis, prefix: keys.queuePrefix });
    try {
      const phoneBase = 100_000_000 + Math.floor(Math.random() * 800_000_000);
      const phoneOf = (i: number) => `+639${String(phoneBase + i).padStart(9, '0')}`;
      const otpJobs: OtpJob[] = Array.from({ length: JOBS_PER_QUEUE }, (_, i) => ({ challengeId: randomUUID(), memberId: randomUUID(), phone: phoneOf(i), amountCentavos: 150_000 }));
      const notificationJobs: NotificationJob[] = Array.from({ length: JOBS_PER_QUEUE }, (_, i) => ({
        notificationId: randomUUID(),
        memberId: randomUUID(),
        phone: phoneOf(JOBS_PER_QUEUE + i),
        title: 'Loan approved',
        message: `Your loan LN-2026-${String(i).padStart(6, '0')} was approved.`,
      }));
      // Queued as the API queues them (same job ids, attempts and backoff), before the workers start.
      await otpQueue.addBulk(otpJobs.map((job) => ({ name: JOB_NAMES.sendOtp, data: job, opts: otpJobOptions(job.challengeId) })));
      await notificationQueue.addBulk(notificationJobs.map((job) => ({ name: JOB_NAMES.sendNotification, data: job, opts: notificationJobOptions(job.notificationId) })));
      const started = Date.now();
      await system.start('workers', { NODE_NAME: 'workers-killed' });
      steadyWorkers = spawnLending('workers', { ...system.env, NODE_NAME: 'workers-steady' });

      const states = async () => [
        ...(await Promise.all(otpJobs.map((job) => otpQueue.getJobState(job.challengeId)))),
        ...(await Promise.all(notificationJobs.map((job) => notificationQueue.getJobState(job.notificationId)))),
      ];
      await eventually(
        `every job to complete after ${KILLS} kills`,
        150_000,
        async () => {
          if (kills < KILLS || killing) return undefined;
          for (const workers of [system.processes.workers!, steadyWorkers!]) {
            if (!workers.isRunning()) throw new Error(`the workers exited:\n${workers.output().slice(-3_000)}`);
          }
          return (await states()).every((state) => state === 'completed' || state === 'failed') ? true : undefined;
        },
        500,
      );
      const seconds = (Date.now() - started) / 1000;
      // A moment for any straggling repeat to reach the gateway before counting.
      await sleep(500);

      const finalStates = await states();
      const lost = finalStates.filter((state) => state !== 'completed').length;
      const phones = [...otpJobs, ...notificationJobs].map((job) => job.phone);
      const duplicates = phones.reduce((sum, phone) => sum + Math.max(0, gateway.deliveredTo(phone).length - 1), 0);
      const unsent = phones.filter((phone) => gateway.deliveredTo(phone).length === 0).length;
      const repeatsDropped = gateway.requests.filter((request) => !request.delivered).length;

      const codesAccepted = await Promise.all(
        otpJobs.map(async (job) => {
          const code = /code is (\d{6})/.exec(gateway.deliveredTo(job.phone)[0]?.message ?? '')?.[1] ?? '';
          return verifyOtp(queueRedis, keys, { memberId: job.memberId, challengeId: job.challengeId, amountCentavos: job.amountCentavos, code, now: new Date(), secret: system.otpSecret });
        }),
      );
      const wrongCodes = codesAccepted.filter((outcome) => outcome !== 'ok').length;

      // Which node finished each job (BullMQ's processedBy, the worker's NODE_NAME): both took their share.
      const finishedBy = await Promise.all([
        ...otpJobs.map(async (job) => (await otpQueue.getJob(job.challengeId))?.processedBy),
        ...notificationJobs.map(async (job) => (await notificationQueue.getJob(job.notificationId))?.processedBy),
      ]);
      const byKilled = finishedBy.filter((name) => name === 'workers-killed').length;
      const bySteady = finishedBy.filter((name) => name === 'workers-steady').length;

      reportFigure({ check: CHECK, name: `jobs lost of ${JOBS_PER_QUEUE * 2} after ${kills} SIGKILLs (all done in ${seconds.toFixed(1)} s)`, value: lost, target: '0' });
      reportFigure({ check: CHECK, name: 'jobs finished by the killed node / the steady node', value: `${byKilled} / ${bySteady}` });
      reportFigure({ check: CHECK, name: `texts delivered twice (repeats the gateway dropped by idempotency key: ${repeatsDropped})`, value: duplicates, target: '0' });
      expect(kills).toBe(KILLS);
      expect(byKilled + bySteady).toBe(JOBS_PER_QUEUE * 2);
      expect(bySteady).toBeGreaterThan(0);
      expect({ lost, unsent, duplicates, wrongCodes }).toEqual({ lost: 0, unsent: 0, duplicates: 0, wrongCodes: 0 });
      expect(gateway.requests.every((request) => request.idempotencyKey !== undefined)).toBe(true);
    } finally {
      await otpQueue.close();
      await notificationQueue.close();
    }
  });
});

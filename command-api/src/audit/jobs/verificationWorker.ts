import type { KeyObject } from 'node:crypto';
import { Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { VerifyJobAnswer } from '@honeylend/contracts';
import { verifyLog, type EventStore } from '@honeylend/eventstore';
import type { Logger } from '../../platform/logging/logger.js';
import { auditJobKeys, FORGET_RUNNING_SCRIPT, PROGRESS_EVERY_MS, RESULT_TTL_SECONDS, RUNNING_VERIFY_TTL_MS, verifyAnswer, VERIFY_QUEUE, type VerifyJobData } from './auditJobs.js';

export interface VerificationWorkerOptions {
  store: EventStore;
  redisUrl: string;
  keyPrefix: string;
  /** The public keys whose checkpoint signatures count. */
  trustedKeys: readonly KeyObject[];
  logger: Logger;
  now: () => Date;
  /** The name each job records as the one that processed it (BullMQ's processedBy). */
  name?: string;
}

export interface RunningVerificationWorker {
  close(): Promise<void>;
}

/**
 * Runs the auditors' verifications of the log, in the workers role: one at a time, so reading the
 * whole log never competes with the API's requests for a core. The API only queues them (and
 * joins the one running: AuditJobs.startVerify).
 */
export async function startVerificationWorker(options: VerificationWorkerOptions): Promise<RunningVerificationWorker> {
  const keys = auditJobKeys(options.keyPrefix);
  // BullMQ's blocking reads need connections that never give up on a command.
  const connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const workerConnection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  for (const each of [connection, workerConnection]) each.on('error', () => undefined);

  const run = async (job: Job<VerifyJobData>): Promise<{ status: string }> => {
    const jobId = job.id!;
    const save = (answer: VerifyJobAnswer) =>
      Promise.all([
        connection.set(keys.verify(jobId), JSON.stringify(answer), 'EX', RESULT_TTL_SECONDS),
        // Still alive: it stays the one every new request joins.
        connection.pexpire(keys.runningVerify, RUNNING_VERIFY_TTL_MS),
      ]);
    let lastWritten = 0;
    let writing: Promise<unknown> = Promise.resolve();
    let answer: VerifyJobAnswer;
    try {
      const report = await verifyLog(options.store, {
        from: job.data.from,
        to: job.data.to,
        trustedKeys: options.trustedKeys,
        onProgress: (progress) => {
          const now = Date.now();
          if (now - lastWritten < PROGRESS_EVERY_MS) return;
          lastWritten = now;
          writing = writing.then(() => Promise.all([save(verifyAnswer(jobId, job.data, progress, null)), job.updateProgress({ ...progress })]));
        },
      });
      answer = verifyAnswer(jobId, job.data, report, options.now().toISOString());
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      options.logger.warn('audit verification could not finish', { jobId, error: message });
      answer = verifyAnswer(jobId, job.data, { verifiedTo: 0, checkedEvents: 0 }, options.now().toISOString(), `The verification could not finish: ${message}`);
    }
    await writing.catch(() => undefined);
    await Promise.all([connection.set(keys.verify(jobId), JSON.stringify(answer), 'EX', RESULT_TTL_SECONDS), connection.set(keys.latestVerify, JSON.stringify(answer), 'EX', RESULT_TTL_SECONDS)]);
    await connection.eval(FORGET_RUNNING_SCRIPT, 1, keys.runningVerify, jobId);
    return { status: answer.status };
  };

  const worker = new Worker<VerifyJobData>(VERIFY_QUEUE, run, { connection: workerConnection, prefix: keys.queuePrefix, concurrency: 1, ...(options.name ? { name: options.name } : {}) });
  worker.on('error', (error) => options.logger.warn('verification worker error', { error: error.message }));
  worker.on('failed', (job, error) => options.logger.error('audit job failed', { jobId: job?.id, error: error.message }));
  await worker.waitUntilReady();
  return {
    async close() {
      await worker.close();
      connection.disconnect();
      workerConnection.disconnect();
    },
  };
}

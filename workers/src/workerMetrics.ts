import type { Job, Queue, Worker } from 'bullmq';
import { metrics } from '@honeylend/observability';
import type { SmsSender } from './sms/smsSender.js';

const jobSeconds = metrics.histogram({
  name: 'honeylend_job_duration_seconds',
  help: 'Time one run of a job took, by queue and outcome (completed, failed: this attempt failed)',
  labelNames: ['queue', 'outcome'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
});
const jobFailures = metrics.counter({
  name: 'honeylend_job_failures_total',
  help: 'Failed runs of a job, by queue; final="true" when no retry is left (the job gave up)',
  labelNames: ['queue', 'final'],
});
const smsSent = metrics.counter({
  name: 'honeylend_sms_sent_total',
  help: 'Texts the SMS sender accepted, by purpose (otp, notification)',
  labelNames: ['purpose'],
});
const smsFailed = metrics.counter({
  name: 'honeylend_sms_failures_total',
  help: 'Texts the SMS sender refused or could not reach, by purpose (each failed attempt; the job retries)',
  labelNames: ['purpose'],
});

/** BullMQ's states a job can be counted in; completed and failed are what the queues keep of recent jobs. */
const JOB_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'completed', 'failed'] as const;

function ranFor(job: Job | undefined): number | null {
  if (!job?.processedOn) return null;
  return Math.max(0, ((job.finishedOn ?? Date.now()) - job.processedOn) / 1000);
}

/** Times each run of the worker's jobs and counts its failures. */
export function observeWorker(worker: Worker): void {
  worker.on('completed', (job) => {
    const seconds = ranFor(job);
    if (seconds !== null) jobSeconds.observe({ queue: worker.name, outcome: 'completed' }, seconds);
  });
  worker.on('failed', (job, error) => {
    const seconds = ranFor(job);
    if (seconds !== null) jobSeconds.observe({ queue: worker.name, outcome: 'failed' }, seconds);
    const final = job === undefined || error.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
    jobFailures.inc({ queue: worker.name, final: String(final) });
  });
}

/** `honeylend_queue_jobs{queue,state}`: each queue's jobs by state, read from Redis at every scrape. */
export function observeQueues(queues: readonly Queue[]): () => void {
  return metrics.observe(
    { name: 'honeylend_queue_jobs', help: 'Jobs in each BullMQ queue by state (waiting and delayed are the backlog; completed and failed are the recent jobs BullMQ keeps)', labelNames: ['queue', 'state'] },
    async (add) => {
      await Promise.all(
        queues.map(async (queue) => {
          const counts = await queue.getJobCounts(...JOB_STATES);
          for (const state of JOB_STATES) add({ queue: queue.name, state }, counts[state] ?? 0);
        }),
      );
    },
  );
}

/** The same sender, counting what it sent and what failed for `purpose`. */
export function countingSender(sender: SmsSender, purpose: string): SmsSender {
  return {
    async send(message, options) {
      try {
        await sender.send(message, options);
      } catch (error) {
        smsFailed.inc({ purpose });
        throw error;
      }
      smsSent.inc({ purpose });
    },
  };
}

import { randomUUID, type KeyObject } from 'node:crypto';
import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { AuditJobUpdate, Book, VerifyJobAnswer } from '@honeylend/contracts';
import { verifyLog, type EventStore, type VerifyReport } from '@honeylend/eventstore';
import type { Logger } from '../../platform/logging/logger.js';
import { foldBook } from '../book/foldBook.js';

/**
 * The auditor's long jobs (issue 16): verifying the log and folding the book as of a date. They
 * run in the API processes — they fold with the deciders' own evolve, which the API holds — as
 * BullMQ jobs, so any node may run one, a node that dies mid-job hands it to another, and every
 * node hears progress (QueueEvents) and pushes it to its own auditors' sockets. Results are kept
 * in Redis: a verification's for a week, the book per position (the log before a position never
 * changes, so neither does the book there).
 */

export const AUDIT_QUEUE = 'audit';
const RESULT_TTL_SECONDS = 7 * 24 * 3600;
/** Progress is written at most this often: a million-event run would otherwise write thousands of times. */
const PROGRESS_EVERY_MS = 250;

interface VerifyJobData {
  kind: 'verify';
  from?: number;
  to?: number;
  startedAt: string;
}
interface BookJobData {
  kind: 'book';
  position: number;
}
type AuditJobData = VerifyJobData | BookJobData;

export function auditJobKeys(prefix: string) {
  return {
    queuePrefix: `${prefix}bull`,
    verify: (jobId: string) => `${prefix}audit:verify:${jobId}`,
    latestVerify: `${prefix}audit:verify:latest`,
    book: (position: number) => `${prefix}audit:book:${position}`,
  };
}

export interface AuditJobsOptions {
  store: EventStore;
  redisUrl: string;
  keyPrefix: string;
  /** The public keys whose checkpoint signatures count. */
  trustedKeys: readonly KeyObject[];
  logger: Logger;
  now: () => Date;
}

function verifyAnswer(jobId: string, data: VerifyJobData, report: Partial<VerifyReport> & { verifiedTo: number; checkedEvents: number }, finishedAt: string | null, error: string | null = null): VerifyJobAnswer {
  const done = finishedAt !== null;
  return {
    jobId,
    status: !done ? 'running' : report.status === 'passed' ? 'passed' : 'failed',
    from: data.from ?? 1,
    to: report.to ?? data.to ?? null,
    verifiedTo: report.verifiedTo,
    checkedEvents: report.checkedEvents,
    checkedCheckpoints: report.checkedCheckpoints ?? 0,
    firstBad: report.firstBad ?? null,
    startedAt: data.startedAt,
    finishedAt,
    error,
  };
}

export class AuditJobs {
  private readonly keys;
  private readonly connection: Redis;
  private readonly workerConnection: Redis;
  private readonly eventsConnection: Redis;
  private readonly queue: Queue<AuditJobData>;
  private readonly worker: Worker<AuditJobData>;
  private readonly events: QueueEvents;
  private readonly listeners = new Set<(update: AuditJobUpdate) => void>();

  constructor(private readonly options: AuditJobsOptions) {
    this.keys = auditJobKeys(options.keyPrefix);
    // BullMQ's blocking reads need connections that never give up on a command.
    this.connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
    this.workerConnection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
    this.eventsConnection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
    for (const connection of [this.connection, this.workerConnection, this.eventsConnection]) connection.on('error', () => undefined);
    const prefix = this.keys.queuePrefix;
    this.queue = new Queue<AuditJobData>(AUDIT_QUEUE, { connection: this.connection, prefix });
    // One job at a time per node: a verification or a fold keeps a core busy between its reads.
    this.worker = new Worker<AuditJobData>(AUDIT_QUEUE, (job) => this.process(job), { connection: this.workerConnection, prefix, concurrency: 1 });
    this.worker.on('error', (error) => options.logger.warn('audit worker error', { error: error.message }));
    this.worker.on('failed', (job, error) => options.logger.error('audit job failed', { jobId: job?.id, error: error.message }));
    this.events = new QueueEvents(AUDIT_QUEUE, { connection: this.eventsConnection, prefix });
    this.events.on('progress', ({ jobId, data }) => this.announce(jobId, 'progress', data));
    this.events.on('completed', ({ jobId, returnvalue }) => this.announce(jobId, 'completed', returnvalue));
    this.events.on('failed', ({ jobId }) => this.announce(jobId, 'failed', null));
  }

  /** Resolves once the queue's connections answer. */
  async ready(): Promise<void> {
    await Promise.all([this.queue.waitUntilReady(), this.worker.waitUntilReady(), this.events.waitUntilReady()]);
  }

  /** Hears every job's progress and end, wherever it runs. */
  onUpdate(listener: (update: AuditJobUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private announce(jobId: string, state: AuditJobUpdate['state'], data: unknown): void {
    const kind = jobId.startsWith('book-') ? 'book' : 'verify';
    void (async () => {
      const update: AuditJobUpdate = { jobId, kind, state };
      if (kind === 'verify') update.verify = (await this.verifyStatus(jobId)) ?? undefined;
      else if (data && typeof data === 'object') update.book = data as AuditJobUpdate['book'];
      for (const listener of this.listeners) listener(update);
    })().catch((error: unknown) => this.options.logger.warn('audit job update failed', { error: error instanceof Error ? error.message : String(error) }));
  }

  private async process(job: Job<AuditJobData>): Promise<unknown> {
    return job.data.kind === 'verify' ? this.runVerify(job as Job<VerifyJobData>) : this.runBook(job as Job<BookJobData>);
  }

  // ── Verification ───────────────────────────────────────────────────────────────────────

  async startVerify(range: { from?: number; to?: number }): Promise<VerifyJobAnswer> {
    const jobId = `verify-${randomUUID()}`;
    const data: VerifyJobData = { kind: 'verify', ...range, startedAt: this.options.now().toISOString() };
    const answer = verifyAnswer(jobId, data, { verifiedTo: (range.from ?? 1) - 1, checkedEvents: 0 }, null);
    await this.connection.set(this.keys.verify(jobId), JSON.stringify(answer), 'EX', RESULT_TTL_SECONDS);
    await this.queue.add('verify-log', data, { jobId, removeOnComplete: { age: 3600 }, removeOnFail: { age: 24 * 3600 } });
    return answer;
  }

  async verifyStatus(jobId: string): Promise<VerifyJobAnswer | null> {
    const raw = await this.connection.get(this.keys.verify(jobId));
    return raw ? (JSON.parse(raw) as VerifyJobAnswer) : null;
  }

  /** The last verification to finish, kept a week. */
  async latestVerification(): Promise<VerifyJobAnswer | null> {
    const raw = await this.connection.get(this.keys.latestVerify);
    return raw ? (JSON.parse(raw) as VerifyJobAnswer) : null;
  }

  private async runVerify(job: Job<VerifyJobData>): Promise<{ status: string }> {
    const jobId = job.id!;
    const save = (answer: VerifyJobAnswer) => this.connection.set(this.keys.verify(jobId), JSON.stringify(answer), 'EX', RESULT_TTL_SECONDS);
    let lastWritten = 0;
    let writing: Promise<unknown> = Promise.resolve();
    let answer: VerifyJobAnswer;
    try {
      const report = await verifyLog(this.options.store, {
        from: job.data.from,
        to: job.data.to,
        trustedKeys: this.options.trustedKeys,
        onProgress: (progress) => {
          const now = Date.now();
          if (now - lastWritten < PROGRESS_EVERY_MS) return;
          lastWritten = now;
          writing = writing.then(() => Promise.all([save(verifyAnswer(jobId, job.data, progress, null)), job.updateProgress({ ...progress })]));
        },
      });
      answer = verifyAnswer(jobId, job.data, report, this.options.now().toISOString());
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.options.logger.warn('audit verification could not finish', { jobId, error: message });
      answer = verifyAnswer(jobId, job.data, { verifiedTo: 0, checkedEvents: 0 }, this.options.now().toISOString(), `The verification could not finish: ${message}`);
    }
    await writing.catch(() => undefined);
    await Promise.all([save(answer), this.connection.set(this.keys.latestVerify, JSON.stringify(answer), 'EX', RESULT_TTL_SECONDS)]);
    return { status: answer.status };
  }

  // ── The book ───────────────────────────────────────────────────────────────────────────

  async cachedBook(position: number): Promise<Book | null> {
    const raw = await this.connection.get(this.keys.book(position));
    return raw ? (JSON.parse(raw) as Book) : null;
  }

  /**
   * Starts (or joins) the fold of the book at `position`; answers its job id and how far it is. A
   * fold that failed is answered as failed once and forgotten, so the next ask starts it afresh —
   * retried on every poll instead, a fold that fails each time kept the auditor waiting for ever.
   */
  async startBook(position: number): Promise<{ jobId: string; progress: { folded: number; of: number } } | { failed: true }> {
    const jobId = `book-${position}`;
    let job: Job<AuditJobData> | undefined = await this.queue.getJob(jobId);
    if (job && (await job.isFailed())) {
      await job.remove();
      return { failed: true };
    }
    job ??= await this.queue.add('fold-book', { kind: 'book', position }, { jobId, removeOnComplete: { age: 600 }, removeOnFail: { age: 600 } });
    const progress = job.progress as { folded?: number; of?: number } | number;
    return { jobId, progress: typeof progress === 'object' && progress.folded !== undefined ? { folded: progress.folded, of: progress.of ?? position } : { folded: 0, of: position } };
  }

  private async runBook(job: Job<BookJobData>): Promise<{ position: number; folded: number; of: number }> {
    const { position } = job.data;
    let lastWritten = 0;
    const book = await foldBook(this.options.store, position, {
      onProgress: (folded, of) => {
        const now = Date.now();
        if (now - lastWritten < PROGRESS_EVERY_MS) return;
        lastWritten = now;
        void job.updateProgress({ position, folded, of }).catch(() => undefined);
      },
    });
    await this.connection.set(this.keys.book(position), JSON.stringify(book), 'EX', RESULT_TTL_SECONDS);
    return { position, folded: position, of: position };
  }

  async close(): Promise<void> {
    await this.worker.close();
    await Promise.all([this.queue.close(), this.events.close()]);
    for (const connection of [this.connection, this.workerConnection, this.eventsConnection]) connection.disconnect();
  }
}

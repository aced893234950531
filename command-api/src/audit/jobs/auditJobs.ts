import { randomUUID } from 'node:crypto';
import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { AuditJobUpdate, Book, VerifyJobAnswer } from '@honeylend/contracts';
import type { EventStore, VerifyReport } from '@honeylend/eventstore';
import type { Logger } from '../../platform/logging/logger.js';
import { foldBook } from '../book/foldBook.js';

/**
 * The auditor's long jobs: verifying the log and folding the book as of a date, as BullMQ jobs, so
 * a node that dies mid-job hands it to another, and every API node hears progress (QueueEvents)
 * and pushes it to its own auditors' sockets. The book is folded in the API processes, with the
 * deciders' own evolve. A verification reads the whole log: the workers role runs it
 * (verificationWorker.ts), one at a time for the whole system — a request while one runs joins it.
 * Results are kept in Redis: a verification's for a week, the book per position (the log before a
 * position never changes, so neither does the book there).
 */

export const AUDIT_QUEUE = 'audit';
export const VERIFY_QUEUE = 'audit-verify';
export const RESULT_TTL_SECONDS = 7 * 24 * 3600;
/** The running verification is named this long after its last sign of life: a job lost with its queue does not block the next for ever. */
export const RUNNING_VERIFY_TTL_MS = 10 * 60_000;
/** Progress is written at most this often: a million-event run would otherwise write thousands of times. */
export const PROGRESS_EVERY_MS = 250;

export interface VerifyJobData {
  kind: 'verify';
  from?: number;
  to?: number;
  startedAt: string;
}
interface BookJobData {
  kind: 'book';
  position: number;
}

export function auditJobKeys(prefix: string) {
  return {
    queuePrefix: `${prefix}bull`,
    verify: (jobId: string) => `${prefix}audit:verify:${jobId}`,
    latestVerify: `${prefix}audit:verify:latest`,
    /** The id of the verification running now (one at a time for the whole system). */
    runningVerify: `${prefix}audit:verify:running`,
    book: (position: number) => `${prefix}audit:book:${position}`,
  };
}

export interface AuditJobsOptions {
  store: EventStore;
  redisUrl: string;
  keyPrefix: string;
  logger: Logger;
  now: () => Date;
}

export function verifyAnswer(jobId: string, data: VerifyJobData, report: Partial<VerifyReport> & { verifiedTo: number; checkedEvents: number }, finishedAt: string | null, error: string | null = null): VerifyJobAnswer {
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

/** Forgets the running verification's id, if it is still `jobId` (a newer one is left alone). */
export const FORGET_RUNNING_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export class AuditJobs {
  private readonly keys;
  private readonly connection: Redis;
  private readonly workerConnection: Redis;
  private readonly eventsConnection: Redis;
  private readonly verifyEventsConnection: Redis;
  private readonly queue: Queue<BookJobData>;
  private readonly verifyQueue: Queue<VerifyJobData>;
  private readonly worker: Worker<BookJobData>;
  private readonly events: QueueEvents;
  private readonly verifyEvents: QueueEvents;
  private readonly listeners = new Set<(update: AuditJobUpdate) => void>();

  constructor(private readonly options: AuditJobsOptions) {
    this.keys = auditJobKeys(options.keyPrefix);
    // BullMQ's blocking reads need connections that never give up on a command.
    this.connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
    this.workerConnection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
    this.eventsConnection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
    this.verifyEventsConnection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
    for (const connection of this.connections()) connection.on('error', () => undefined);
    const prefix = this.keys.queuePrefix;
    this.queue = new Queue<BookJobData>(AUDIT_QUEUE, { connection: this.connection, prefix });
    this.verifyQueue = new Queue<VerifyJobData>(VERIFY_QUEUE, { connection: this.connection, prefix });
    // One fold at a time per node: a fold keeps a core busy between its reads.
    this.worker = new Worker<BookJobData>(AUDIT_QUEUE, (job) => this.runBook(job), { connection: this.workerConnection, prefix, concurrency: 1 });
    this.worker.on('error', (error) => options.logger.warn('audit worker error', { error: error.message }));
    this.worker.on('failed', (job, error) => options.logger.error('audit job failed', { jobId: job?.id, error: error.message }));
    this.events = new QueueEvents(AUDIT_QUEUE, { connection: this.eventsConnection, prefix });
    this.verifyEvents = new QueueEvents(VERIFY_QUEUE, { connection: this.verifyEventsConnection, prefix });
    for (const events of [this.events, this.verifyEvents]) {
      events.on('progress', ({ jobId, data }) => this.announce(jobId, 'progress', data));
      events.on('completed', ({ jobId, returnvalue }) => this.announce(jobId, 'completed', returnvalue));
      events.on('failed', ({ jobId }) => this.announce(jobId, 'failed', null));
    }
  }

  private connections(): Redis[] {
    return [this.connection, this.workerConnection, this.eventsConnection, this.verifyEventsConnection];
  }

  /** Resolves once the queue's connections answer. */
  async ready(): Promise<void> {
    await Promise.all([this.queue.waitUntilReady(), this.verifyQueue.waitUntilReady(), this.worker.waitUntilReady(), this.events.waitUntilReady(), this.verifyEvents.waitUntilReady()]);
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

  // ── Verification ───────────────────────────────────────────────────────────────────────

  /**
   * Starts a verification for the workers to run, or joins the one running: its answer, whatever
   * range this request asked for. Of concurrent requests the first to name itself running wins and
   * the others join it.
   */
  async startVerify(range: { from?: number; to?: number }): Promise<VerifyJobAnswer> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const running = await this.runningVerification();
      if (running) return running;
      const jobId = `verify-${randomUUID()}`;
      const data: VerifyJobData = { kind: 'verify', ...range, startedAt: this.options.now().toISOString() };
      const answer = verifyAnswer(jobId, data, { verifiedTo: (range.from ?? 1) - 1, checkedEvents: 0 }, null);
      // Its answer is written before it is named running, so whoever joins it finds one to read.
      await this.connection.set(this.keys.verify(jobId), JSON.stringify(answer), 'EX', RESULT_TTL_SECONDS);
      if ((await this.connection.set(this.keys.runningVerify, jobId, 'PX', RUNNING_VERIFY_TTL_MS, 'NX')) === null) {
        await this.connection.del(this.keys.verify(jobId));
        continue;
      }
      await this.verifyQueue.add('verify-log', data, { jobId, removeOnComplete: { age: 3600 }, removeOnFail: { age: 24 * 3600 } });
      return answer;
    }
    throw new Error('no verification could be started or joined');
  }

  /** The verification named running, while it runs; one that has finished is forgotten here. */
  private async runningVerification(): Promise<VerifyJobAnswer | null> {
    const jobId = await this.connection.get(this.keys.runningVerify);
    if (!jobId) return null;
    const answer = await this.verifyStatus(jobId);
    if (answer?.status === 'running') return answer;
    await this.connection.eval(FORGET_RUNNING_SCRIPT, 1, this.keys.runningVerify, jobId);
    return null;
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
    let job: Job<BookJobData> | undefined = await this.queue.getJob(jobId);
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
    await Promise.all([this.queue.close(), this.verifyQueue.close(), this.events.close(), this.verifyEvents.close()]);
    for (const connection of this.connections()) connection.disconnect();
  }
}

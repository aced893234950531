import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { JobKeys } from '@honeylend/contracts';
import { execTransaction } from '../redisTransaction.js';

/**
 * What one job's text has been through, kept in Redis beside the queue so it outlives the worker
 * process. A job can run again after its text reached the gateway: the worker may die (SIGKILL,
 * a lost machine) between the gateway's acceptance and BullMQ marking the job done, and BullMQ
 * then hands the stalled job to another worker. The record makes that re-run harmless:
 *
 * - `state: sent` is written as soon as the gateway accepted, before the job is acknowledged, so
 *   a re-run finds it and sends nothing.
 * - A worker killed in the short window after the gateway accepted but before `sent` was written
 *   leaves no marker; the re-run then sends the same message with the same idempotency key
 *   (`<queue>:<job id>:<send number>`), which the gateway uses to drop the repeat.
 * - For an OTP the message carries a code, so the code is derived from a random `seed` kept here
 *   (HMAC with OTP_SECRET): the re-run rebuilds the very same code instead of texting a new one.
 *   Knowing the seed without the secret gives nothing, just as the stored code hash does; the
 *   seed is deleted once the text is sent.
 * - Only a send the gateway explicitly refused (a non-2xx answer) moves the send number on, so the
 *   retry is a new message (a fresh code, a fresh key) rather than a repeat the gateway would drop.
 */
export interface SmsDelivery {
  /** The gateway already accepted this job's text: send nothing. */
  sent: boolean;
  /** Random bytes (hex) the job's message may be derived from; stable across re-runs of one send. */
  seed: string;
  /** How many sends the gateway refused so far; part of the idempotency key and of an OTP's code. */
  sendNumber: number;
  idempotencyKey: string;
}

/** Long enough to cover every retry of a job (5 attempts, exponential from 1 s) and a stalled job's recovery. */
export const SMS_DELIVERY_RECORD_TTL_MS = 24 * 3600 * 1000;

export class SmsDeliveries {
  constructor(
    private readonly redis: Redis,
    private readonly keys: JobKeys,
  ) {}

  private key(queue: string, jobId: string): string {
    return `${this.keys.prefix}sms:delivery:${queue}:${jobId}`;
  }

  /** Opens (or finds) the job's record; the first run draws its seed. */
  async begin(queue: string, jobId: string): Promise<SmsDelivery> {
    const key = this.key(queue, jobId);
    const results = await this.redis.multi().hsetnx(key, 'seed', randomBytes(32).toString('hex')).hsetnx(key, 'sendNumber', '0').pexpire(key, SMS_DELIVERY_RECORD_TTL_MS).hmget(key, 'state', 'seed', 'sendNumber').exec();
    if (results === null) throw new Error('Redis transaction was aborted');
    const failure = results.find(([error]) => error !== null);
    if (failure?.[0]) throw failure[0];
    const [state, seed, sendNumber] = results[3][1] as [string | null, string | null, string | null];
    const number = Number(sendNumber ?? 0);
    return { sent: state === 'sent', seed: seed ?? '', sendNumber: number, idempotencyKey: `${queue}:${jobId}:${number}` };
  }

  /** The gateway accepted the text: no later run of this job sends it again. */
  async markSent(queue: string, jobId: string): Promise<void> {
    const key = this.key(queue, jobId);
    await execTransaction(this.redis.multi().hset(key, 'state', 'sent').hdel(key, 'seed').pexpire(key, SMS_DELIVERY_RECORD_TTL_MS));
  }

  /** The gateway refused the text: the next run sends a new message under a new key. */
  async markRefused(queue: string, jobId: string): Promise<void> {
    await this.redis.hincrby(this.key(queue, jobId), 'sendNumber', 1);
  }
}

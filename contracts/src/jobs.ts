import { z } from 'zod';
import { CONVERTER_CURRENCY_CODES, type ConverterCurrency } from './converter.js';
import { OTP_TTL_MS } from './otpRules.js';

/**
 * What the command API (producer) and the workers (consumers) agree on: queue and job names,
 * job payloads, job options, Redis keys and the shapes of the records the workers write.
 * Browser-safe: the converter currencies and rate answers are used by the web app too.
 */

// Plain constants live in modules without zod, so the browser's first load can take them without
// zod's schemas being built (issue 20); they are still this module's exports.
export * from './converter.js';
export * from './otpRules.js';

/** BullMQ queue names shared by the producers (command-api) and the consumers (workers). */
export const QUEUE_NAMES = {
  otp: 'otp',
  notifications: 'notifications',
  rates: 'rates',
  servicing: 'servicing',
} as const;
export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

export const JOB_NAMES = {
  sendOtp: 'send-otp',
  /** A code confirming a change of the bank account on the member's profile (issue 14). */
  sendBankChangeCode: 'send-bank-change-code',
  sendNotification: 'send-notification',
  refreshRates: 'refresh-rates',
  /** Hourly: close every business day up to today (Asia/Manila) and send the reminders due. */
  closeBusinessDay: 'close-business-day',
} as const;

// OTP rules (design §7): ./otpRules.ts

// ── Job payloads ──────────────────────────────────────────────────────────────────────────

const e164Phone = z.string().regex(/^\+[1-9]\d{7,14}$/, 'phone must be in E.164 form (+639171234567)');
const centavos = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** The API request that enqueued the job (its X-Request-Id), so the worker's log lines can be joined to it. */
const requestId = z
  .string()
  .regex(/^[\w-]{8,64}$/)
  .optional();

/**
 * Asks the worker to generate, store (hashed) and text a withdrawal code. Strict, so a payload
 * carrying a code (or anything else) is refused: job data is stored in Redis in the clear.
 */
export const otpJobSchema = z.strictObject({
  challengeId: z.uuid(),
  memberId: z.uuid(),
  phone: e164Phone,
  amountCentavos: centavos,
  /** Where the money goes, masked as the text names it: "BPI ••••7890". */
  destination: z.string().min(1).max(120).optional(),
  requestId,
});
export type OtpJob = z.infer<typeof otpJobSchema>;

/**
 * Asks the worker to make, store (hashed, bound to the new account) and text a code confirming a
 * change of the member's bank account. The text names the new account masked; the job never
 * carries a code.
 */
export const bankChangeCodeJobSchema = z.strictObject({
  challengeId: z.uuid(),
  memberId: z.uuid(),
  phone: e164Phone,
  /** bankChangeBinding(bankName, bankAccountNumber): the code confirms only this account. */
  binding: z.string().regex(/^[0-9a-f]{64}$/),
  /** The new account as the text names it: "BPI ••••7890". */
  destination: z.string().min(1).max(120),
  requestId,
});
export type BankChangeCodeJob = z.infer<typeof bankChangeCodeJobSchema>;

/** A bank account as texts and answers name it: the bank and the last four digits. */
export function maskedDestination(bankName: string, bankAccountNumber: string): string {
  return `${bankName} ••••${bankAccountNumber.slice(-4)}`;
}

/** A loan-status notification sent to the member by SMS. */
export const notificationJobSchema = z.strictObject({
  notificationId: z.uuid(),
  memberId: z.uuid(),
  phone: e164Phone,
  title: z.string().trim().min(1).max(120),
  message: z.string().trim().min(1).max(1000),
  requestId,
});
export type NotificationJob = z.infer<typeof notificationJobSchema>;

export const ratesRefreshJobSchema = z.strictObject({});
export type RatesRefreshJob = z.infer<typeof ratesRefreshJobSchema>;

/** BullMQ's job options, restated here so contracts needs no bullmq dependency. */
export interface QueuedJobOptions {
  jobId: string;
  attempts: number;
  backoff: { type: 'exponential'; delay: number };
  /** Kept for `age` seconds, at most `count` of them (BullMQ's KeepJobs). */
  removeOnComplete: { age: number; count: number };
  removeOnFail: { age: number; count: number };
}

const DELIVERY_RETRY = { attempts: 5, backoff: { type: 'exponential', delay: 1_000 } } as const;
// Failed jobs stay a day for operators (their data holds no code).
const KEEP_FAILED = { age: 24 * 3600, count: 1_000 };

/**
 * jobId = challengeId: enqueueing the same challenge twice sends one code. A completed job is
 * kept a little longer than a code lives, so a duplicate enqueue in that time is still a no-op.
 */
export function otpJobOptions(challengeId: string): QueuedJobOptions {
  return {
    jobId: challengeId,
    ...DELIVERY_RETRY,
    backoff: { ...DELIVERY_RETRY.backoff },
    removeOnComplete: { age: OTP_TTL_MS / 1000 + 60, count: 10_000 },
    removeOnFail: { ...KEEP_FAILED },
  };
}

/** jobId = notificationId: one notification is texted once however often it is enqueued. */
export function notificationJobOptions(notificationId: string): QueuedJobOptions {
  return {
    jobId: notificationId,
    ...DELIVERY_RETRY,
    backoff: { ...DELIVERY_RETRY.backoff },
    removeOnComplete: { age: 3600, count: 10_000 },
    removeOnFail: { ...KEEP_FAILED },
  };
}

// ── Redis keys ────────────────────────────────────────────────────────────────────────────

/**
 * Every key the producers and workers share. The prefix lets tests and benchmarks isolate
 * themselves in one Redis; `queuePrefix` is BullMQ's `prefix` option under the same prefix.
 */
export interface JobKeys {
  readonly prefix: string;
  readonly queuePrefix: string;
  /** Hash: challengeId, amountCentavos, codeHash, attemptsLeft, expiresAt, requestedAt; TTL = code lifetime. */
  otpChallenge(memberId: string): string;
  /** Sorted set of recently issued challenges, for the issue throttle. */
  otpIssueThrottle(memberId: string): string;
  /** Hash: the member's live bank-change code (as otpChallenge, bound to the new account instead of an amount). */
  bankChangeChallenge(memberId: string): string;
  /** Counter: wrong codes the member typed on one Manila day (YYYY-MM-DD). */
  otpWrongCodes(memberId: string, day: string): string;
  /** Hash: the member's last OTP delivery, shown to admins. */
  otpDeliveryStatus(memberId: string): string;
  /** List, newest first: texts the development sender "sent". */
  readonly smsOutbox: string;
  /** String: JSON StoredRates. */
  readonly ratesLatest: string;
  /** Sorted set per currency: one `date|rate` member per Manila day, scored by day number. */
  ratesHistory(currency: ConverterCurrency): string;
  /** String YYYY-MM-DD: the business date moved forward outside production (POST /api/dev/business-date). */
  readonly businessDateOverride: string;
  /** String YYYY-MM-DD: the last business date every active loan was closed through. */
  readonly lastDayClose: string;
}

export function createJobKeys(prefix = ''): JobKeys {
  return {
    prefix,
    queuePrefix: `${prefix}bull`,
    otpChallenge: (memberId) => `${prefix}otp:challenge:${memberId}`,
    otpIssueThrottle: (memberId) => `${prefix}otp:issued:${memberId}`,
    bankChangeChallenge: (memberId) => `${prefix}otp:bank-change:${memberId}`,
    otpWrongCodes: (memberId, day) => `${prefix}otp:wrong:${memberId}:${day}`,
    otpDeliveryStatus: (memberId) => `${prefix}otp:delivery:${memberId}`,
    smsOutbox: `${prefix}sms:outbox`,
    ratesLatest: `${prefix}rates:latest`,
    ratesHistory: (currency) => `${prefix}rates:history:${currency}`,
    businessDateOverride: `${prefix}servicing:business-date`,
    lastDayClose: `${prefix}servicing:last-day-close`,
  };
}

// ── Records the workers write ─────────────────────────────────────────────────────────────

export const otpDeliveryStateSchema = z.enum(['sent', 'retrying', 'failed']);

/** What admins see in the members table instead of a code: did the last code reach the phone? */
export const otpDeliveryStatusSchema = z.object({
  challengeId: z.string(),
  state: otpDeliveryStateSchema,
  sentTo: z.string(),
  lastAttemptAt: z.iso.datetime(),
  lastSentAt: z.iso.datetime().nullable(),
  /** Failed sends in a row; a successful send resets it. */
  failures: z.number().int().nonnegative(),
  lastError: z.string().nullable(),
  lastErrorAt: z.iso.datetime().nullable(),
});
export type OtpDeliveryStatus = z.infer<typeof otpDeliveryStatusSchema>;

export const smsOutboxEntrySchema = z.object({
  to: z.string(),
  body: z.string(),
  createdAt: z.iso.datetime(),
});
export type SmsOutboxEntry = z.infer<typeof smsOutboxEntrySchema>;

// ── Currency converter (spec §9): the constants in ./converter.ts ──────────────────────────

export const converterCurrencySchema = z.enum(CONVERTER_CURRENCY_CODES);

const ratePerPeso = z.number().positive().finite();
const ratesByCurrency = z.record(converterCurrencySchema, ratePerPeso);

/** The latest fetched rates as stored by the worker. */
export const storedRatesSchema = z.object({
  base: z.literal('PHP'),
  rates: ratesByCurrency,
  asOf: z.iso.datetime(),
  source: z.literal('live'),
});
export type StoredRates = z.infer<typeof storedRatesSchema>;

export const ratePointSchema = z.object({
  /** Calendar day in Manila (UTC+8), YYYY-MM-DD. */
  date: z.iso.date(),
  rate: ratePerPeso,
});
export type RatePoint = z.infer<typeof ratePointSchema>;

/** `GET /api/rates`: live rates with real stored history, or labelled fallback rates. */
export const ratesAnswerSchema = z.object({
  base: z.literal('PHP'),
  rates: ratesByCurrency,
  asOf: z.iso.datetime().nullable(),
  source: z.enum(['live', 'fallback']),
  /** Oldest first; only days on which rates were really fetched. */
  history: z.record(converterCurrencySchema, z.array(ratePointSchema)),
});
export type RatesAnswer = z.infer<typeof ratesAnswerSchema>;

const MANILA_OFFSET_MS = 8 * 3600_000;
const DAY_MS = 86_400_000;

/** Philippine days are what borrowers call "today"; Manila has no daylight saving. */
export function manilaDayNumber(at: Date): number {
  return Math.floor((at.getTime() + MANILA_OFFSET_MS) / DAY_MS);
}

export function manilaDate(at: Date): string {
  return new Date(manilaDayNumber(at) * DAY_MS).toISOString().slice(0, 10);
}

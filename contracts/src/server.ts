/**
 * Node-only helpers shared by command-api and workers (they use node:crypto, so the browser never
 * imports this entry): the OTP challenge record (issue, verify, throttle, delivery status), the
 * development SMS outbox and the exchange rates, each read or written by one atomic Lua script.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import {
  CONVERTER_CURRENCY_CODES,
  FALLBACK_RATES_PER_PESO,
  OTP_ISSUE_LIMIT,
  OTP_ISSUE_WINDOW_MS,
  OTP_MAX_ATTEMPTS,
  RATE_HISTORY_DAYS,
  manilaDate,
  manilaDayNumber,
  otpDeliveryStatusSchema,
  smsOutboxEntrySchema,
  storedRatesSchema,
  type ConverterCurrency,
  type JobKeys,
  type OtpDeliveryStatus,
  type RatePoint,
  type RatesAnswer,
  type SmsOutboxEntry,
} from './jobs.js';

/** The one Redis command these helpers need; an ioredis client satisfies it. */
export interface RedisScripting {
  eval(script: string, numberOfKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
}

// ── Secrets and hashing ───────────────────────────────────────────────────────────────────

const DEVELOPMENT_OTP_SECRET = 'honeylend-development-otp-secret-never-use-in-production';
const MIN_OTP_SECRET_LENGTH = 32;

/**
 * Whether the development defaults (a JWT secret generated into the data directory, a fixed OTP
 * secret, a generated password for the main admin, the SMS outbox and its route, a movable
 * business date) may be used: only when
 * NODE_ENV is `development` (also when unset) or `test`, or ALLOW_DEV_DEFAULTS=1 outside
 * production. Any other NODE_ENV — `production`, `staging`, a typo — must set every secret, so a
 * misspelt environment never runs with secrets published in the README.
 */
export function devDefaultsAllowed(env: Readonly<Record<string, string | undefined>>): boolean {
  const nodeEnv = env.NODE_ENV === undefined || env.NODE_ENV === '' ? 'development' : env.NODE_ENV;
  if (nodeEnv === 'development' || nodeEnv === 'test') return true;
  return nodeEnv !== 'production' && env.ALLOW_DEV_DEFAULTS === '1';
}

/**
 * Signing secrets published with Honeylend: the development JWT secret every development server
 * once signed with. Anyone can sign a token with one, so none ever signs or verifies a token.
 */
const PUBLISHED_SECRETS: ReadonlySet<string> = new Set(['honeylend-development-secret-not-for-production']);

export function isPublishedSecret(secret: string): boolean {
  return PUBLISHED_SECRETS.has(secret);
}

/** How a refusal names the environment that caused it. */
export function withoutDevDefaults(env: Readonly<Record<string, string | undefined>>): string {
  return `NODE_ENV=${env.NODE_ENV}`;
}

/**
 * The HMAC key shared by the API (verifying) and the workers (issuing). Production must set
 * OTP_SECRET; elsewhere a fixed development key keeps `lending start` working without setup.
 */
export function resolveOtpSecret(env: Readonly<Record<string, string | undefined>>): { secret: string; isDevelopmentDefault: boolean } {
  const configured = env.OTP_SECRET;
  if (configured !== undefined && configured !== '') {
    if (configured.length < MIN_OTP_SECRET_LENGTH) throw new Error(`OTP_SECRET must be at least ${MIN_OTP_SECRET_LENGTH} characters`);
    return { secret: configured, isDevelopmentDefault: false };
  }
  if (!devDefaultsAllowed(env)) throw new Error(`OTP_SECRET is required when ${withoutDevDefaults(env)}`);
  return { secret: DEVELOPMENT_OTP_SECRET, isDevelopmentDefault: true };
}

/**
 * Keyed hash of a code, bound to its challenge: a Redis dump without the secret cannot be
 * brute-forced over the million possible codes, and a hash cannot be replayed on another challenge.
 */
export function hashOtpCode(secret: string, challengeId: string, code: string): string {
  return createHmac('sha256', secret).update(`${challengeId}:${code}`).digest('hex');
}

/** Compares secrets without leaking, through timing, how much of them matched (or their length). */
export function constantTimeEqual(a: string, b: string): boolean {
  const digestA = createHash('sha256').update(a).digest();
  const digestB = createHash('sha256').update(b).digest();
  return timingSafeEqual(digestA, digestB);
}

// ── OTP challenge: issue ──────────────────────────────────────────────────────────────────

const STORE_CHALLENGE_SCRIPT = `
local current = redis.call('HMGET', KEYS[1], 'challengeId', 'requestedAt', 'attemptsLeft')
local attempts = tonumber(ARGV[4])
if current[1] then
  if current[1] == ARGV[1] then
    -- a retry of the same challenge keeps the attempts already spent
    attempts = math.min(attempts, tonumber(current[3]))
    if attempts <= 0 then return 'exhausted' end
  elseif tonumber(current[2]) > tonumber(ARGV[7]) then
    return 'superseded'
  end
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'challengeId', ARGV[1], 'binding', ARGV[2], 'codeHash', ARGV[3],
  'attemptsLeft', attempts, 'expiresAt', ARGV[5], 'requestedAt', ARGV[7])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return 'stored'
`;

export type StoreOtpChallengeResult = 'stored' | 'superseded' | 'exhausted';

interface ChallengeToStore {
  challengeId: string;
  /** What the code confirms and nothing else: a withdrawal's amount, or a new bank account's binding. */
  binding: string;
  codeHash: string;
  requestedAt: Date;
  now: Date;
  ttlMs: number;
}

async function storeChallenge(redis: RedisScripting, key: string, challenge: ChallengeToStore): Promise<StoreOtpChallengeResult> {
  const expiresAt = challenge.now.getTime() + challenge.ttlMs;
  const result = await redis.eval(STORE_CHALLENGE_SCRIPT, 1, key, challenge.challengeId, challenge.binding, challenge.codeHash, OTP_MAX_ATTEMPTS, expiresAt, challenge.ttlMs, challenge.requestedAt.getTime());
  if (result === 'stored' || result === 'superseded' || result === 'exhausted') return result;
  throw new Error(`unexpected answer from the OTP store script: ${String(result)}`);
}

/**
 * Makes `codeHash` the member's one live challenge. Refuses ('superseded') when a challenge
 * requested later already holds the slot, so a late retry never invalidates the newer code; a
 * retry of the same challenge keeps its spent attempts ('exhausted' when none are left).
 */
export async function storeOtpChallenge(
  redis: RedisScripting,
  keys: JobKeys,
  challenge: { memberId: string; challengeId: string; amountCentavos: number; codeHash: string; requestedAt: Date; now: Date; ttlMs: number },
): Promise<StoreOtpChallengeResult> {
  const { memberId, amountCentavos, ...rest } = challenge;
  return storeChallenge(redis, keys.otpChallenge(memberId), { ...rest, binding: String(amountCentavos) });
}

/**
 * What a bank-change code is bound to: the new bank and account number (hashed, so the Redis record
 * holds no account number). A code sent for one account cannot confirm another.
 */
export function bankChangeBinding(bankName: string, bankAccountNumber: string): string {
  return createHash('sha256').update(`bank-change:${bankName.trim().toLowerCase()}:${bankAccountNumber}`).digest('hex');
}

/** As storeOtpChallenge, for the member's one live bank-change code. */
export async function storeBankChangeChallenge(
  redis: RedisScripting,
  keys: JobKeys,
  challenge: { memberId: string; challengeId: string; binding: string; codeHash: string; requestedAt: Date; now: Date; ttlMs: number },
): Promise<StoreOtpChallengeResult> {
  const { memberId, ...rest } = challenge;
  return storeChallenge(redis, keys.bankChangeChallenge(memberId), rest);
}

// ── OTP challenge: verify ─────────────────────────────────────────────────────────────────

const VERIFY_SCRIPT = `
local function equalInConstantTime(a, b)
  if #a ~= #b then return false end
  local difference = 0
  for i = 1, #a do
    difference = bit.bor(difference, bit.bxor(string.byte(a, i), string.byte(b, i)))
  end
  return difference == 0
end

local record = redis.call('HMGET', KEYS[1], 'challengeId', 'binding', 'codeHash', 'attemptsLeft', 'expiresAt')
if not record[1] then return {'expired', ''} end
if record[1] ~= ARGV[1] then return {'other-challenge', record[1]} end
if tonumber(record[5]) <= tonumber(ARGV[4]) then
  redis.call('DEL', KEYS[1])
  return {'expired', ''}
end
local attemptsLeft = tonumber(record[4])
if attemptsLeft <= 0 or not record[3] then return {'exhausted', ''} end
if record[2] == ARGV[3] and equalInConstantTime(record[3], ARGV[2]) then
  -- consumed here, or (ARGV[5] = 'keep') by consumeChallenge once the step it confirms is recorded
  if ARGV[5] ~= 'keep' then redis.call('DEL', KEYS[1]) end
  return {'ok', ''}
end
attemptsLeft = attemptsLeft - 1
redis.call('HSET', KEYS[1], 'attemptsLeft', attemptsLeft)
-- the code dies with its last attempt; the record stays until its TTL to answer 'exhausted'
if attemptsLeft <= 0 then redis.call('HDEL', KEYS[1], 'codeHash') end
return {'invalid', ''}
`;

export type OtpVerification = 'ok' | 'invalid' | 'expired' | 'exhausted';

export interface VerifyOtpInput {
  memberId: string;
  /** When given, only that challenge's code is accepted; otherwise the member's live challenge. */
  challengeId?: string;
  /** The withdrawal amount being confirmed: a code only confirms the amount it was issued for. */
  amountCentavos: number;
  code: string;
  now: Date;
  secret: string;
}

/**
 * Checks a code in one atomic script: no record → 'expired'; no attempts left → 'exhausted';
 * wrong amount or wrong code → 'invalid' and one attempt spent; right code → 'ok' and the
 * record deleted (single use).
 */
export async function verifyOtp(redis: RedisScripting, keys: JobKeys, input: VerifyOtpInput): Promise<OtpVerification> {
  return (await verifyOtpChallenge(redis, keys, input)).outcome;
}

/** As verifyOtp, also naming the challenge the code was checked against (the one a withdrawal spends). */
export async function verifyOtpChallenge(redis: RedisScripting, keys: JobKeys, input: VerifyOtpInput & { keepUntilConsumed?: boolean }): Promise<{ outcome: OtpVerification; challengeId: string | null }> {
  if (!Number.isSafeInteger(input.amountCentavos)) throw new RangeError(`amountCentavos must be a safe integer: ${input.amountCentavos}`);
  const { amountCentavos, memberId, ...rest } = input;
  return verifyChallenge(redis, keys.otpChallenge(memberId), { ...rest, binding: String(amountCentavos) });
}

export interface VerifyChallengeInput {
  challengeId?: string;
  binding: string;
  code: string;
  now: Date;
  secret: string;
  /**
   * Leave a right code's record in place: the caller consumes it (consumeChallenge) once the step
   * it confirms is recorded, so a failure to record that step does not burn the code.
   */
  keepUntilConsumed?: boolean;
}

async function verifyChallenge(redis: RedisScripting, key: string, input: VerifyChallengeInput): Promise<{ outcome: OtpVerification; challengeId: string | null }> {
  // The hash is bound to the challenge id, so without one given the live challenge's id is
  // learnt first; a challenge replaced in between is simply looked up again.
  let challengeId = input.challengeId ?? '';
  for (let lookups = 0; lookups < 3; lookups += 1) {
    const codeHash = challengeId === '' ? '' : hashOtpCode(input.secret, challengeId, input.code);
    const answer = await redis.eval(VERIFY_SCRIPT, 1, key, challengeId, codeHash, input.binding, input.now.getTime(), input.keepUntilConsumed ? 'keep' : 'consume');
    const [outcome, liveChallengeId] = parseVerifyAnswer(answer);
    if (outcome !== 'other-challenge') return { outcome, challengeId: challengeId || null };
    if (input.challengeId !== undefined) return { outcome: 'expired', challengeId: null };
    challengeId = liveChallengeId;
  }
  return { outcome: 'expired', challengeId: null };
}

/** Checks a bank-change code against the new account it must have been sent for (see verifyOtp). */
export async function verifyBankChangeCode(
  redis: RedisScripting,
  keys: JobKeys,
  input: { memberId: string; binding: string; code: string; now: Date; secret: string; keepUntilConsumed?: boolean },
): Promise<{ outcome: OtpVerification; challengeId: string | null }> {
  const { memberId, ...rest } = input;
  return verifyChallenge(redis, keys.bankChangeChallenge(memberId), rest);
}

const CONSUME_SCRIPT = `
if redis.call('HGET', KEYS[1], 'challengeId') == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** Spends a verified challenge once what it confirmed is recorded; a newer challenge in its place is left alone. */
export async function consumeChallenge(redis: RedisScripting, key: string, challengeId: string): Promise<void> {
  await redis.eval(CONSUME_SCRIPT, 1, key, challengeId);
}

// ── Wrong codes per day ───────────────────────────────────────────────────────────────────

const COUNT_WRONG_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count
`;

/** Counts one wrong code against the member's Manila day and answers how many that day has seen. */
export async function countWrongCode(redis: RedisScripting, keys: JobKeys, memberId: string, now: Date): Promise<number> {
  // Kept two days, so the count lives through the whole Manila day whatever the time it started.
  const answer = await redis.eval(COUNT_WRONG_SCRIPT, 1, keys.otpWrongCodes(memberId, manilaDate(now)), 2 * 86_400_000);
  if (typeof answer !== 'number') throw new Error(`unexpected answer from the wrong-code counter: ${String(answer)}`);
  return answer;
}

function parseVerifyAnswer(answer: unknown): [OtpVerification | 'other-challenge', string] {
  if (Array.isArray(answer) && answer.length === 2 && typeof answer[1] === 'string') {
    const outcome: unknown = answer[0];
    if (outcome === 'ok' || outcome === 'invalid' || outcome === 'expired' || outcome === 'exhausted' || outcome === 'other-challenge') {
      return [outcome, answer[1]];
    }
  }
  throw new Error(`unexpected answer from the OTP verify script: ${JSON.stringify(answer)}`);
}

// ── OTP issue throttle ────────────────────────────────────────────────────────────────────

const THROTTLE_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, tonumber(oldest[2]) + window}
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return {1, limit - redis.call('ZCARD', KEYS[1])}
`;

export type OtpIssueDecision = { allowed: true; remaining: number } | { allowed: false; retryAt: Date; retryAfterSeconds: number };

/**
 * Counts a code about to be issued against the member's sliding window (3 per 15 minutes) and
 * answers whether it may be sent; a refused request is not counted.
 */
export async function reserveOtpIssue(redis: RedisScripting, keys: JobKeys, request: { memberId: string; challengeId: string; now: Date; limit?: number; windowMs?: number }): Promise<OtpIssueDecision> {
  const now = request.now.getTime();
  const answer = await redis.eval(THROTTLE_SCRIPT, 1, keys.otpIssueThrottle(request.memberId), now, request.windowMs ?? OTP_ISSUE_WINDOW_MS, request.limit ?? OTP_ISSUE_LIMIT, request.challengeId);
  if (!Array.isArray(answer) || typeof answer[0] !== 'number' || typeof answer[1] !== 'number') {
    throw new Error(`unexpected answer from the OTP throttle script: ${JSON.stringify(answer)}`);
  }
  if (answer[0] === 1) return { allowed: true, remaining: answer[1] };
  const retryAt = answer[1];
  return { allowed: false, retryAt: new Date(retryAt), retryAfterSeconds: Math.max(1, Math.ceil((retryAt - now) / 1000)) };
}

// ── OTP delivery status ───────────────────────────────────────────────────────────────────

const HGETALL_SCRIPT = `return redis.call('HGETALL', KEYS[1])`;

/** The member's last OTP delivery (for the admin members table), or null if none was ever attempted. */
export async function readOtpDeliveryStatus(redis: RedisScripting, keys: JobKeys, memberId: string): Promise<OtpDeliveryStatus | null> {
  const flat = await redis.eval(HGETALL_SCRIPT, 1, keys.otpDeliveryStatus(memberId));
  if (!Array.isArray(flat) || flat.length === 0) return null;
  const fields = new Map<string, string>();
  for (let i = 0; i + 1 < flat.length; i += 2) fields.set(String(flat[i]), String(flat[i + 1]));
  return otpDeliveryStatusSchema.parse({
    challengeId: fields.get('challengeId'),
    state: fields.get('state'),
    sentTo: fields.get('sentTo'),
    lastAttemptAt: fields.get('lastAttemptAt'),
    lastSentAt: fields.get('lastSentAt') ?? null,
    failures: Number(fields.get('failures') ?? '0'),
    lastError: fields.get('lastError') ?? null,
    lastErrorAt: fields.get('lastErrorAt') ?? null,
  });
}

// ── Development SMS outbox ────────────────────────────────────────────────────────────────

const LRANGE_SCRIPT = `return redis.call('LRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)`;

/** Texts the development sender "sent", newest first (for local sign-in and end-to-end tests). */
export async function readSmsOutbox(redis: RedisScripting, keys: JobKeys, options: { to?: string; limit?: number } = {}): Promise<SmsOutboxEntry[]> {
  const raw = await redis.eval(LRANGE_SCRIPT, 1, keys.smsOutbox, options.limit ?? 50);
  if (!Array.isArray(raw)) throw new Error('unexpected answer reading the SMS outbox');
  const entries = raw.map((item) => smsOutboxEntrySchema.parse(JSON.parse(String(item))));
  return options.to === undefined ? entries : entries.filter((entry) => entry.to === options.to);
}

// ── Exchange rates ────────────────────────────────────────────────────────────────────────

const READ_RATES_SCRIPT = `
local answer = { redis.call('GET', KEYS[1]) }
for i = 2, #KEYS do
  answer[i] = redis.call('ZRANGEBYSCORE', KEYS[i], ARGV[1], '+inf')
end
return answer
`;

/**
 * `GET /api/rates`: the last fetched rates, or the spec's fallback rates labelled 'fallback'
 * (asOf null) when none were ever fetched, with every real stored daily point of the last
 * 30 Manila days, oldest first. One script, so rates and history are one consistent snapshot.
 */
export async function readRates(redis: RedisScripting, keys: JobKeys, now: Date): Promise<RatesAnswer> {
  const firstDay = manilaDayNumber(now) - (RATE_HISTORY_DAYS - 1);
  const historyKeys = CONVERTER_CURRENCY_CODES.map((code) => keys.ratesHistory(code));
  const answer = await redis.eval(READ_RATES_SCRIPT, 1 + historyKeys.length, keys.ratesLatest, ...historyKeys, firstDay);
  if (!Array.isArray(answer)) throw new Error('unexpected answer reading exchange rates');

  const history = {} as Record<ConverterCurrency, RatePoint[]>;
  CONVERTER_CURRENCY_CODES.forEach((code, index) => {
    const members: unknown = answer[index + 1];
    history[code] = Array.isArray(members) ? members.map((member) => parseRateHistoryMember(String(member))) : [];
  });

  const latestJson: unknown = answer[0];
  if (typeof latestJson !== 'string') {
    return { base: 'PHP', rates: { ...FALLBACK_RATES_PER_PESO }, asOf: null, source: 'fallback', history };
  }
  const latest = storedRatesSchema.parse(JSON.parse(latestJson));
  return { base: 'PHP', rates: latest.rates, asOf: latest.asOf, source: 'live', history };
}

/** History points are sorted-set members `YYYY-MM-DD|rate`, scored by Manila day number. */
export function rateHistoryMember(point: RatePoint): string {
  return `${point.date}|${point.rate}`;
}

function parseRateHistoryMember(member: string): RatePoint {
  const [date, rate] = member.split('|');
  if (date === undefined || rate === undefined) throw new Error(`malformed rate history point: ${member}`);
  return { date, rate: Number(rate) };
}

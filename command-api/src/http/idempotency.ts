import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Context, Next } from 'koa';
import { ApiError } from './apiError.js';
import { toApiError } from './errorHandling.js';

/** POSTs that create something: a retry must never create it twice. */
const CREATING_ROUTES = [
  /^\/api\/loans$/,
  /^\/api\/withdrawals$/,
  /^\/api\/withdrawals\/otp$/,
  /^\/api\/admin\/users$/,
  /^\/api\/admin\/users\/[^/]+\/balance-adjustments$/,
  /^\/api\/admin\/create-admin$/,
  /^\/api\/admin\/notifications$/,
  /^\/api\/loans\/[^/]+\/repayments$/,
  /^\/api\/admin\/loans\/[^/]+\/repayments$/,
  /^\/api\/admin\/loans\/[^/]+\/penalty-waivers$/,
];

const KEY_FORMAT = /^[\w-]{8,128}$/;
const REMEMBER_SECONDS = 24 * 3600;
const WAIT_FOR_FIRST_MS = 10_000;

interface StoredAnswer {
  fingerprint: string;
  status: number;
  body: unknown;
}

/**
 * `Idempotency-Key` on a creating POST: the first request runs and its answer is kept for a day;
 * the same key again (a retry after a timeout, a double click) gets that same answer without
 * running anything. A retry that arrives while the first is still running waits for it. Keys are
 * scoped to the caller's credentials, and a key reused for a different request is refused.
 */
export function idempotency(redis: Redis, prefix: string) {
  return async (ctx: Context, next: Next) => {
    const given = ctx.get('Idempotency-Key');
    if (ctx.method !== 'POST' || !given || !CREATING_ROUTES.some((route) => route.test(ctx.path))) return next();
    if (!KEY_FORMAT.test(given)) {
      throw new ApiError(400, 'INVALID_IDEMPOTENCY_KEY', 'Idempotency-Key must be 8 to 128 letters, digits, dashes or underscores');
    }
    const scope = createHash('sha256').update(ctx.get('Authorization') || `anonymous:${ctx.ip}`).digest('hex').slice(0, 32);
    const key = `${prefix}idempotency:${scope}:${given}`;
    const fingerprint = createHash('sha256').update(`${ctx.path}\n${JSON.stringify((ctx.request as { body?: unknown }).body ?? null)}`).digest('hex');

    const claimed = await redis.set(key, JSON.stringify({ fingerprint, pending: true }), 'EX', REMEMBER_SECONDS, 'NX');
    if (claimed !== 'OK') {
      const answer = await storedAnswer(redis, key);
      if (answer.fingerprint !== fingerprint) {
        throw new ApiError(422, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for a different request');
      }
      ctx.status = answer.status;
      ctx.body = answer.body;
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }
    try {
      await next();
    } catch (error) {
      const refusal = toApiError(error);
      // A refusal of this very request (bad input, not allowed) is its answer, as a success would be;
      // so is a change the event store could not confirm (OUTCOME_UNKNOWN): running the request
      // again could make it twice. A race, a rate limit or an outage is not: a retry with the same
      // key should really run again.
      const final = (refusal.status < 500 && refusal.status !== 409 && refusal.status !== 429) || refusal.code === 'OUTCOME_UNKNOWN';
      if (final) await remember(redis, key, { fingerprint, status: refusal.status, body: refusal.toBody() });
      else await redis.del(key);
      throw error;
    }
    if (ctx.status >= 500) await redis.del(key);
    else await remember(redis, key, { fingerprint, status: ctx.status, body: ctx.body });
  };
}

function remember(redis: Redis, key: string, answer: StoredAnswer) {
  return redis.set(key, JSON.stringify(answer), 'EX', REMEMBER_SECONDS);
}

async function storedAnswer(redis: Redis, key: string): Promise<StoredAnswer> {
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const raw = await redis.get(key);
    const stored = raw ? (JSON.parse(raw) as StoredAnswer & { pending?: boolean }) : null;
    if (stored && !stored.pending) return stored;
    if (!stored) throw new ApiError(409, 'IDEMPOTENT_REQUEST_FAILED', 'The first request with this Idempotency-Key failed; send it again with a new key');
    if (Date.now() > deadline) throw new ApiError(409, 'IDEMPOTENT_REQUEST_IN_PROGRESS', 'A request with this Idempotency-Key is still running; try again shortly');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

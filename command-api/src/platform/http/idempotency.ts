import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Context, Middleware, Next } from 'koa';
import { ApiError } from '../errors/apiError.js';
import { toApiError } from './errorHandling.js';
import type { ApiDeps } from '../context/context.js';
import { authenticate } from '../sessions/authenticate.js';

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
/**
 * A request still running holds its key only this long unless it renews the hold: a process that
 * dies mid-request leaves the key free again within seconds, not stuck "in progress" for a day.
 */
export const PENDING_HOLD_MS = 15_000;
const RENEW_PENDING_EVERY_MS = 5_000;

// KEYS: the key. ARGV: this request's pending marker, hold in ms. Renews the hold only while this request still owns it.
const RENEW_PENDING_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;

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
 *
 * The caller is checked before a key is looked at, with the checks the route itself makes (for
 * /api/admin the staff routes' own guard, `staffAccess`: the allow-list and a live staff token; a
 * live token elsewhere): a kept answer
 * is never handed to a signed-out token, a suspended account or an address off the allow-list.
 */
export function idempotency(deps: ApiDeps, staffAccess: Middleware, timing: { pendingHoldMs: number; renewEveryMs: number } = { pendingHoldMs: PENDING_HOLD_MS, renewEveryMs: RENEW_PENDING_EVERY_MS }) {
  const { redis } = deps;
  const prefix = deps.jobs.keys.prefix;
  const signedIn = authenticate(deps.tokens, deps.readModels, ['borrower', 'admin', 'superadmin', 'auditor']);
  return async (ctx: Context, next: Next): Promise<unknown> => {
    const given = ctx.get('Idempotency-Key');
    if (ctx.method !== 'POST' || !given || !CREATING_ROUTES.some((route) => route.test(ctx.path))) return next();
    if (!KEY_FORMAT.test(given)) {
      throw new ApiError(400, 'INVALID_IDEMPOTENCY_KEY', 'Idempotency-Key must be 8 to 128 letters, digits, dashes or underscores');
    }
    const guard = /^\/api\/admin\//i.test(ctx.path) ? staffAccess : signedIn;
    await guard(ctx, () => runOnce(redis, prefix, given, timing, ctx, next));
  };
}

async function runOnce(redis: Redis, prefix: string, given: string, timing: { pendingHoldMs: number; renewEveryMs: number }, ctx: Context, next: Next): Promise<void> {
  const scope = createHash('sha256')
    .update(ctx.get('Authorization') || `anonymous:${ctx.ip}`)
    .digest('hex')
    .slice(0, 32);
  const key = `${prefix}idempotency:${scope}:${given}`;
  const fingerprint = createHash('sha256')
    .update(`${ctx.path}\n${JSON.stringify((ctx.request as { body?: unknown }).body ?? null)}`)
    .digest('hex');

  const pendingMarker = JSON.stringify({ fingerprint, pending: true, owner: randomUUID() });
  const claimed = await redis.set(key, pendingMarker, 'PX', timing.pendingHoldMs, 'NX');
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
  const renewal = setInterval(() => {
    redis.eval(RENEW_PENDING_SCRIPT, 1, key, pendingMarker, timing.pendingHoldMs).catch(() => undefined);
  }, timing.renewEveryMs);
  try {
    await next();
  } catch (error) {
    clearInterval(renewal);
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
  clearInterval(renewal);
  if (ctx.status >= 500) await redis.del(key);
  else await remember(redis, key, { fingerprint, status: ctx.status, body: ctx.body });
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

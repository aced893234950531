import type { Redis } from 'ioredis';
import type { Queue } from 'bullmq';
import type { JobKeys } from '@honeylend/contracts';
import type { Context } from 'koa';
import type { EventMetadata, EventStore } from '@honeylend/eventstore';
import type { LoginThrottle } from '../throttle/loginThrottle.js';
import type { LeakyBuckets } from '../throttle/leakyBuckets.js';
import type { AccountLimits } from '../throttle/accountLimits.js';
import type { TokenService } from '../sessions/tokens.js';
import type { Caller } from '../sessions/authenticate.js';
import type { ProjectionProgress } from '../consistency/projectionProgress.js';
import type { ReadModelStore } from '../readModels/readModelStore.js';
import type { Logger } from '../logging/logger.js';
import type { FileStore } from '../uploads/fileStore.js';
import type { SignedFileUrls } from '../uploads/signedFileUrls.js';
import type { BusinessClock } from '../time/businessClock.js';
import type { LateChargeSettings } from '@honeylend/contracts';

/**
 * What every capability's routes need, built once per process by `startApiServer`. A capability
 * that needs more declares it beside its routes (the auditor's jobs: audit/auditDeps.ts) and the
 * app's own deps (app.ts) add it.
 */
export interface ApiDeps {
  store: EventStore;
  redis: Redis;
  readModels: ReadModelStore;
  progress: ProjectionProgress;
  tokens: TokenService;
  loginThrottle: LoginThrottle;
  /** Request limits kept in Redis (registration, password reset, uploads), and the account limits in force. */
  limits: LeakyBuckets;
  accountLimits: AccountLimits;
  logger: Logger;
  files: FileStore;
  /** What the API hands to the workers: OTP jobs, and the keys and secret to check their codes. */
  jobs: { keys: JobKeys; otpQueue: Queue; notificationQueue: Queue; otpSecret: string; /** Password-reset and phone-confirmation codes. */ accountCodeQueue: Queue };
  signedFileUrls: SignedFileUrls;
  /** Ends an account's live sessions (its sockets), on every API node, the moment its access is revoked. */
  revokeSessions?: (id: string, reason: string) => Promise<void>;
  /** TRUSTED_PROXIES: the proxies whose X-Forwarded-For names the client (addresses or CIDR ranges). */
  trustedProxies?: readonly string[];
  /** The clock, injectable so tests can move time. */
  now: () => Date;
  /** Today's business date (Asia/Manila); movable outside production. */
  businessClock: BusinessClock;
  /** Loan servicing: the late-charge terms new accounts open with, and the payment provider's webhook secret (none: the webhook answers 503). */
  servicing: { lateCharge: LateChargeSettings; paymentWebhookSecret: string | null };
  /** The privacy notice version in force (RA 10173); this code's PRIVACY_NOTICE_VERSION unless a test or an operator names another. */
  privacyNoticeVersion?: string;
}

export function callerOf(ctx: Context): Caller {
  return ctx.state.caller as Caller;
}

/**
 * Every event records who asked, from where, and which request it belongs to: `requestId` is the
 * one the request's log line carries (and its X-Request-Id answer), so an operator can follow one
 * borrower action from the HTTP line to its events, the projections, the sockets and the SMS.
 */
export function metadataOf(ctx: Context, actorId: string): EventMetadata {
  const requestId = ctx.state.requestId as string;
  return { correlationId: requestId, causationId: requestId, requestId, actorId, ip: ctx.ip };
}

/** What a job enqueued by this request carries besides its own data: the request id, to follow it into the worker's log. */
export function jobTraceOf(ctx: Context): { requestId: string } {
  return { requestId: ctx.state.requestId as string };
}

import type { Redis } from 'ioredis';
import type { Queue } from 'bullmq';
import type { JobKeys } from '@honeylend/contracts';
import type { Context } from 'koa';
import type { EventMetadata, EventStore } from '@honeylend/eventstore';
import type { LoginThrottle } from '../auth/loginThrottle.js';
import type { TokenService } from '../auth/tokens.js';
import type { Caller } from '../auth/authenticate.js';
import type { ProjectionProgress } from '../consistency/projectionProgress.js';
import type { ReadModelStore } from '../readModels/readModelStore.js';
import type { Logger } from './logger.js';
import type { FileStore } from '../uploads/fileStore.js';
import type { SignedFileUrls } from '../uploads/signedFileUrls.js';

/** What the routes need, built once per process by `createApi`. */
export interface ApiDeps {
  store: EventStore;
  redis: Redis;
  readModels: ReadModelStore;
  progress: ProjectionProgress;
  tokens: TokenService;
  loginThrottle: LoginThrottle;
  logger: Logger;
  files: FileStore;
  /** What the API hands to the workers: OTP jobs, and the keys and secret to check their codes. */
  jobs: { keys: JobKeys; otpQueue: Queue; notificationQueue: Queue; otpSecret: string };
  signedFileUrls: SignedFileUrls;
  /** Ends an account's live sessions (its sockets) the moment its access is revoked. */
  revokeSessions?: (id: string, reason: string) => void;
  /** TRUSTED_PROXIES: the proxies whose X-Forwarded-For names the client (addresses or CIDR ranges). */
  trustedProxies?: readonly string[];
  /** The clock, injectable so tests can move time. */
  now: () => Date;
}

export function callerOf(ctx: Context): Caller {
  return ctx.state.caller as Caller;
}

/** Every event records who asked, from where, and which request it belongs to. */
export function metadataOf(ctx: Context, actorId: string): EventMetadata {
  return { correlationId: ctx.state.requestId as string, causationId: ctx.state.requestId as string, actorId, ip: ctx.ip };
}

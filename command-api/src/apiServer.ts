import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { Queue } from 'bullmq';
import { ACCOUNT_CODE_QUEUE, createJobKeys, DEFAULT_LATE_CHARGE_SETTINGS, QUEUE_NAMES, readModelKeys, type LateChargeSettings } from '@honeylend/contracts';
import { devDefaultsAllowed, resolveOtpSecret } from '@honeylend/contracts/server';
import { LeakyBuckets } from './platform/throttle/leakyBuckets.js';
import { accountLimits } from './platform/throttle/accountLimits.js';
import { storeIdentityOf, type EventStore } from '@honeylend/eventstore';
import { createApp, type AppDeps } from './app.js';
import { readAdminStats } from './statistics/readAdminStats.js';
import { bootstrapSuperadmin } from './staff/bootstrapSuperadmin.js';
import { seedCompanyDetails } from './company/companyFromEnvironment.js';
import { parseTrustedProxies } from './platform/http/clientAddress.js';
import { LoginThrottle } from './platform/throttle/loginThrottle.js';
import { TokenService } from './platform/sessions/tokens.js';
import { RevokedTokens } from './platform/sessions/revokedTokens.js';
import { ProjectionProgress } from './platform/consistency/projectionProgress.js';
import type { Logger } from './platform/logging/logger.js';
import { ReadModelStore } from './platform/readModels/readModelStore.js';
import { RealtimeGateway } from './platform/realtime/realtimeGateway.js';
import { FileStore } from './platform/uploads/fileStore.js';
import { SignedFileUrls } from './platform/uploads/signedFileUrls.js';
import type { KeyObject } from 'node:crypto';
import { AuditJobs } from './audit/jobs/auditJobs.js';
import { BusinessClock } from './platform/time/businessClock.js';

export interface ApiServerOptions {
  store: EventStore;
  redisUrl: string;
  /** Key prefix for every Redis key (read models, throttles); lets tests and benchmarks share a Redis. */
  keyPrefix?: string;
  jwtSecret: string;
  /** Where uploaded documents are kept (outside the web root). */
  uploadDir: string;
  port: number;
  host?: string;
  webRoot?: string;
  /** Flat interest per month for new loans, in basis points (default 250 = 2.5 %). */
  monthlyRateBps?: number;
  superadmin?: { username: string; password: string };
  /** Proxies whose X-Forwarded-For is believed (addresses or CIDR ranges); default: env TRUSTED_PROXIES. */
  trustedProxies?: readonly string[];
  /** The environment, for the secrets shared with the workers (OTP_SECRET) and NODE_ENV. */
  env?: Readonly<Record<string, string | undefined>>;
  logger: Logger;
  now?: () => Date;
  /** The public keys whose checkpoint signatures verification accepts (the signing key's, from AUDIT_SIGNING_KEY). */
  auditTrustedKeys: readonly KeyObject[];
  /** Late-charge terms for accounts opened from now on (default spec §9: 2 % a month after 3 grace days). */
  lateCharge?: LateChargeSettings;
  /** PAYMENT_WEBHOOK_SECRET: the payment provider signs its webhook with it. */
  paymentWebhookSecret?: string | null;
  /** The privacy notice version members must have consented to (default: this code's PRIVACY_NOTICE_VERSION). */
  privacyNoticeVersion?: string;
}

export interface ApiServer {
  server: Server;
  port: number;
  deps: AppDeps;
  realtime: RealtimeGateway;
  /** Whether this start made the main admin (`created`) or found one (`exists`); null when it was given none to make. */
  mainAdmin: 'created' | 'exists' | null;
  /** Stops accepting connections, lets in-flight requests finish (up to `graceMs`), then closes connections it owns. */
  close(graceMs?: number): Promise<void>;
}

/**
 * The connections requests use fail fast while Redis is away, so a request answers 503 at once
 * instead of hanging through an outage: with no offline queue a command is refused while the
 * connection is down (rather than held for reconnection attempts that back off to 2 s each, which
 * kept requests waiting 4–5 s), and a command a hung server leaves unanswered is abandoned after
 * 2 s. The subscriber and the change-feed tail keep patient connections: they wait for Redis.
 */
const REQUEST_PATH_REDIS = { maxRetriesPerRequest: 2, connectTimeout: 2_000, enableOfflineQueue: false, commandTimeout: 2_000 } as const;

async function untilReady(redis: Redis, timeoutMs = 10_000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      redis.off('ready', ready);
      reject(new Error(`Redis did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const ready = () => {
      clearTimeout(timer);
      resolve();
    };
    redis.once('ready', ready);
  });
}

export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  // Checked before any connection opens, so a bad TRUSTED_PROXIES stops the start cleanly.
  const trustedProxies = options.trustedProxies ?? parseTrustedProxies((options.env ?? process.env).TRUSTED_PROXIES);
  const keyPrefix = options.keyPrefix ?? '';
  const keys = readModelKeys(keyPrefix);
  // Auto-pipelining sends the commands of concurrent requests issued in one tick as one write (and
  // Redis answers them in one read): under load, far fewer syscalls on both sides. This connection
  // never holds a WATCH or a subscription, which pipelining would interleave.
  const redis = new Redis(options.redisUrl, { ...REQUEST_PATH_REDIS, enableAutoPipelining: true });
  const subscriber = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const readModels = new ReadModelStore(redis, keys);
  const progress = new ProjectionProgress(redis, subscriber, keys, () => storeIdentityOf(options.store));
  const env = options.env ?? process.env;
  const jobKeys = createJobKeys(keyPrefix);
  const queueConnection = new Redis(options.redisUrl, REQUEST_PATH_REDIS);
  // Without an offline queue nothing may be sent before the connections are up.
  await Promise.all([untilReady(redis), untilReady(queueConnection)]);
  const otpQueue = new Queue(QUEUE_NAMES.otp, { connection: queueConnection, prefix: jobKeys.queuePrefix });
  const now = options.now ?? (() => new Date());
  const auditJobs = new AuditJobs({ store: options.store, redisUrl: options.redisUrl, keyPrefix, logger: options.logger, now });
  await auditJobs.ready();
  const notificationQueue = new Queue(QUEUE_NAMES.notifications, { connection: queueConnection, prefix: jobKeys.queuePrefix });
  const deps: AppDeps = {
    store: options.store,
    redis,
    readModels,
    progress,
    tokens: Object.assign(new TokenService(options.jwtSecret), { revoked: new RevokedTokens(redis, keyPrefix) }),
    loginThrottle: new LoginThrottle(redis, keyPrefix),
    limits: new LeakyBuckets(redis, keyPrefix),
    accountLimits: accountLimits(env),
    logger: options.logger,
    files: new FileStore(options.uploadDir),
    jobs: { keys: jobKeys, otpQueue, notificationQueue, otpSecret: resolveOtpSecret(env).secret, accountCodeQueue: new Queue(ACCOUNT_CODE_QUEUE, { connection: queueConnection, prefix: jobKeys.queuePrefix }) },
    trustedProxies,
    signedFileUrls: new SignedFileUrls(options.jwtSecret),
    now,
    audit: { jobs: auditJobs, trustedKeys: options.auditTrustedKeys },
    businessClock: new BusinessClock(redis, jobKeys.businessDateOverride, now, devDefaultsAllowed(env)),
    servicing: { lateCharge: options.lateCharge ?? DEFAULT_LATE_CHARGE_SETTINGS, paymentWebhookSecret: options.paymentWebhookSecret ?? env.PAYMENT_WEBHOOK_SECRET ?? null },
    ...(options.privacyNoticeVersion ? { privacyNoticeVersion: options.privacyNoticeVersion } : {}),
  };
  await progress.start();
  const mainAdmin = options.superadmin ? await bootstrapSuperadmin(options.store, options.superadmin.username, options.superadmin.password, options.logger) : null;
  await seedCompanyDetails(options.store, env, options.logger);

  const app = createApp(deps, { webRoot: options.webRoot, monthlyRateBps: options.monthlyRateBps, devOutbox: devDefaultsAllowed(env), devBusinessDate: devDefaultsAllowed(env) });
  // Koa's handler catches its own errors (ctx.onerror); Node's server does not look at the promise it returns.
  const handle = app.callback();
  const server = createServer((request, response) => void handle(request, response));
  server.keepAliveTimeout = 5_000;
  const realtime = new RealtimeGateway(server, deps, new Redis(options.redisUrl, { maxRetriesPerRequest: null }), new Redis(options.redisUrl, { maxRetriesPerRequest: null }), () => readAdminStats(deps));
  await realtime.start();
  deps.revokeSessions = (id, reason) => realtime.revokeEverywhere(id, reason);
  auditJobs.onUpdate((update) => realtime.toAuditors('audit.job', update));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    server,
    port,
    deps,
    realtime,
    mainAdmin,
    async close(graceMs = 4_000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await realtime.stop();
      server.closeIdleConnections();
      const forced = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearTimeout(forced);
      await progress.stop();
      await auditJobs.close();
      await otpQueue.close();
      await notificationQueue.close();
      await deps.jobs.accountCodeQueue.close();
      queueConnection.disconnect();
      redis.disconnect();
    },
  };
}

import type { KeyObject } from 'node:crypto';
import { resolve } from 'node:path';
import { z } from 'zod';
import { LOG_LEVELS, type LogLevel } from '@honeylend/observability';
import { SigningKeyError, parseSigningKey } from '@honeylend/eventstore';
import { devDefaultsAllowed } from '@honeylend/contracts/server';

export interface Config {
  nodeEnv: string;
  isProduction: boolean;
  /** NODE_ENV development or test, or ALLOW_DEV_DEFAULTS=1 outside production: the development defaults may be used. */
  devDefaults: boolean;
  port: number;
  redisUrl: string;
  /** REDIS_URL was set: `lending start` then never starts a Redis of its own. */
  redisUrlGiven: boolean;
  redisKeyPrefix: string;
  dataDir: string;
  eventStoreUrl: string;
  uploadDir: string;
  jwtSecret: string;
  superadmin: { username: string; password: string };
  logLevel: LogLevel;
  /** How long the projection leader's lease lives unrenewed: a standby takes over this long after the leader dies (PROJECTION_LEASE_MS). */
  projectionLeaseMs: number;
  /** Where this process serves GET /metrics (METRICS_PORT); null: not served. */
  metrics: { port: number; host: string } | null;
  /** Flat interest per month for new loans, in basis points (250 = 2.5 %). */
  loanMonthlyRateBps: number;
  /**
   * The Ed25519 key that signs the log's checkpoints: AUDIT_SIGNING_KEY (required in production),
   * or in development a key generated once into this file (see audit/signingKeys.ts).
   */
  auditSigning: { key: KeyObject } | { devKeyFile: string };
  /** Late charge per month on an overdue instalment (basis points) and the grace days before it starts, for loans disbursed from now on. */
  lateCharge: { monthlyBps: number; graceDays: number };
  /** The payment provider signs its webhook with it; without it POST /api/payments/webhook answers 503. */
  paymentWebhookSecret: string | null;
  /** Things a developer should know about the defaults in use (never the values of secrets). */
  warnings: string[];
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const DEV_JWT_SECRET = 'honeylend-development-secret-not-for-production';
const DEV_ADMIN_PASSWORD = 'honeylend-dev-admin';

const envSchema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .default('redis://127.0.0.1:6379'),
  REDIS_KEY_PREFIX: z.string().default(''),
  DATA_DIR: z.string().min(1).default('./data'),
  EVENTSTORE_URL: z.string().min(1).optional(),
  UPLOAD_DIR: z.string().min(1).optional(),
  JWT_SECRET: z.string().optional(),
  ADMIN_USERNAME: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  METRICS_PORT: z.preprocess((value) => (value === '' ? undefined : value), z.coerce.number().int().min(0).max(65_535).optional()),
  // The metrics answer anyone who reaches them, without a sign-in: this machine only, unless told otherwise.
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  AUDIT_SIGNING_KEY: z.string().optional(),
  LOAN_MONTHLY_RATE_PERCENT: z.coerce
    .number()
    .min(0, 'must be a percent per month between 0 and 100')
    .max(100, 'must be a percent per month between 0 and 100')
    .refine((percent) => Number.isInteger(Math.round(percent * 10_000) / 100), 'at most two decimals')
    .default(2.5),
  LATE_CHARGE_MONTHLY_RATE_PERCENT: z.coerce
    .number()
    .min(0, 'must be a percent per month between 0 and 100')
    .max(100, 'must be a percent per month between 0 and 100')
    .refine((percent) => Number.isInteger(Math.round(percent * 10_000) / 100), 'at most two decimals')
    .default(2),
  LATE_CHARGE_GRACE_DAYS: z.coerce.number().int('must be a whole number of days').min(0).max(60).default(3),
  PAYMENT_WEBHOOK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  PROJECTION_LEASE_MS: z.coerce.number().int('must be a whole number of milliseconds').min(300).max(60_000).default(3_000),
});

/** Reads the environment once, at start; every problem is reported in one clear line. */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`${issue.path.join('.')}: ${issue.message}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  // Anything but development and test (production, staging, a typo) runs only with real secrets.
  const devDefaults = devDefaultsAllowed({ NODE_ENV: e.NODE_ENV, ALLOW_DEV_DEFAULTS: env.ALLOW_DEV_DEFAULTS });
  const where = `NODE_ENV=${e.NODE_ENV}`;
  const warnings: string[] = [];
  const dataDir = resolve(e.DATA_DIR);

  let jwtSecret = e.JWT_SECRET;
  if (!jwtSecret) {
    if (!devDefaults) throw new ConfigError(`JWT_SECRET is required when ${where} (at least 32 random characters)`);
    jwtSecret = DEV_JWT_SECRET;
    warnings.push('JWT_SECRET is not set: using the development secret; set JWT_SECRET before exposing this server');
  } else if (jwtSecret.length < 32 && !devDefaults) {
    throw new ConfigError(`JWT_SECRET must be at least 32 characters when ${where}`);
  }

  let username = e.ADMIN_USERNAME?.trim();
  let password = e.ADMIN_PASSWORD;
  if (!username || !password) {
    if (!devDefaults) throw new ConfigError(`ADMIN_USERNAME and ADMIN_PASSWORD are required when ${where}`);
    username ||= 'admin';
    password ||= DEV_ADMIN_PASSWORD;
    warnings.push(`ADMIN_USERNAME/ADMIN_PASSWORD not set: the main admin is "${username}" with the development password from the README`);
  }
  if (password.length < 10) throw new ConfigError('ADMIN_PASSWORD must be at least 10 characters');

  let auditSigning: Config['auditSigning'];
  if (e.AUDIT_SIGNING_KEY) {
    try {
      auditSigning = { key: parseSigningKey(e.AUDIT_SIGNING_KEY) };
    } catch (error) {
      throw new ConfigError(error instanceof SigningKeyError ? error.message : 'AUDIT_SIGNING_KEY cannot be read');
    }
  } else {
    if (!devDefaults) throw new ConfigError(`AUDIT_SIGNING_KEY is required when ${where} (an Ed25519 private key: openssl genpkey -algorithm ed25519)`);
    auditSigning = { devKeyFile: resolve(dataDir, 'audit-signing-key.pem') };
  }

  return {
    nodeEnv: e.NODE_ENV,
    isProduction,
    devDefaults,
    port: e.PORT,
    redisUrl: e.REDIS_URL,
    redisUrlGiven: env.REDIS_URL !== undefined && env.REDIS_URL !== '',
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    dataDir,
    eventStoreUrl: e.EVENTSTORE_URL ?? `pglite:${resolve(dataDir, 'events')}`,
    uploadDir: resolve(e.UPLOAD_DIR ?? resolve(dataDir, 'uploads')),
    jwtSecret,
    superadmin: { username, password },
    logLevel: e.LOG_LEVEL,
    metrics: e.METRICS_PORT === undefined ? null : { port: e.METRICS_PORT, host: e.METRICS_HOST },
    loanMonthlyRateBps: Math.round(e.LOAN_MONTHLY_RATE_PERCENT * 100),
    auditSigning,
    lateCharge: { monthlyBps: Math.round(e.LATE_CHARGE_MONTHLY_RATE_PERCENT * 100), graceDays: e.LATE_CHARGE_GRACE_DAYS },
    paymentWebhookSecret: e.PAYMENT_WEBHOOK_SECRET ?? null,
    projectionLeaseMs: e.PROJECTION_LEASE_MS,
    warnings,
  };
}

export function isPgliteUrl(url: string): boolean {
  return url.startsWith('pglite:');
}

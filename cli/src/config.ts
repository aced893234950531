import type { KeyObject } from 'node:crypto';
import { resolve } from 'node:path';
import { z } from 'zod';
import { LOG_LEVELS, type LogLevel } from '@honeylend/observability';
import { SigningKeyError, parseSigningKey } from '@honeylend/eventstore';
import { devDefaultsAllowed, isPublishedSecret } from '@honeylend/contracts/server';
import { parseBackupEncryptionKey } from './backup/backupEncryption.js';
import { DEV_JWT_SECRET_FILE, generatePassword, type JwtSecretSource } from './devSecrets.js';

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
  /**
   * The tokens' signing secret: JWT_SECRET (required outside development and test), or in
   * development one generated at the first start into this file and kept there (see devSecrets.ts).
   */
  jwtSecret: JwtSecretSource;
  /** `generated`: ADMIN_PASSWORD was not set; this one was made for this run, and is printed if the main admin is made with it. */
  superadmin: { username: string; password: string; generated: boolean };
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
  /** BACKUP_ENCRYPTION_KEY (32 bytes): `lending backup` seals the file with it (AES-256-GCM), `lending restore` opens it; null: backups are plain gzip. */
  backupEncryptionKey: Buffer | null;
  /** The payment provider signs its webhook with it; without it POST /api/payments/webhook answers 503. */
  paymentWebhookSecret: string | null;
  /** Things a developer should know about the defaults in use (never the values of secrets). */
  warnings: string[];
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

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
  BACKUP_ENCRYPTION_KEY: z.string().optional(),
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

  let jwtSecret: JwtSecretSource;
  if (e.JWT_SECRET) {
    if (e.JWT_SECRET.length < 32 && !devDefaults) throw new ConfigError(`JWT_SECRET must be at least 32 characters when ${where}`);
    if (isPublishedSecret(e.JWT_SECRET)) throw new ConfigError('JWT_SECRET is a secret published with Honeylend; choose your own (openssl rand -hex 32)');
    jwtSecret = { secret: e.JWT_SECRET };
  } else {
    if (!devDefaults) throw new ConfigError(`JWT_SECRET is required when ${where} (at least 32 random characters)`);
    jwtSecret = { devSecretFile: resolve(dataDir, DEV_JWT_SECRET_FILE) };
    warnings.push(`JWT_SECRET is not set: using the secret generated for this data directory (${DEV_JWT_SECRET_FILE}); set JWT_SECRET before exposing this server`);
  }

  let username = e.ADMIN_USERNAME?.trim();
  let password = e.ADMIN_PASSWORD;
  const generated = !password;
  if (!username || !password) {
    if (!devDefaults) throw new ConfigError(`ADMIN_USERNAME and ADMIN_PASSWORD are required when ${where}`);
    username ||= 'admin';
    password ||= generatePassword();
    if (generated) warnings.push(`ADMIN_PASSWORD is not set: if the main admin "${username}" is made now, its password is made too and printed once`);
    else warnings.push(`ADMIN_USERNAME is not set: the main admin made at the first start is "${username}"`);
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

  let backupEncryptionKey: Buffer | null = null;
  if (e.BACKUP_ENCRYPTION_KEY) {
    try {
      backupEncryptionKey = parseBackupEncryptionKey(e.BACKUP_ENCRYPTION_KEY);
    } catch (error) {
      throw new ConfigError(error instanceof Error ? error.message : 'BACKUP_ENCRYPTION_KEY cannot be read');
    }
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
    superadmin: { username, password, generated },
    logLevel: e.LOG_LEVEL,
    metrics: e.METRICS_PORT === undefined ? null : { port: e.METRICS_PORT, host: e.METRICS_HOST },
    loanMonthlyRateBps: Math.round(e.LOAN_MONTHLY_RATE_PERCENT * 100),
    auditSigning,
    backupEncryptionKey,
    lateCharge: { monthlyBps: Math.round(e.LATE_CHARGE_MONTHLY_RATE_PERCENT * 100), graceDays: e.LATE_CHARGE_GRACE_DAYS },
    paymentWebhookSecret: e.PAYMENT_WEBHOOK_SECRET ?? null,
    projectionLeaseMs: e.PROJECTION_LEASE_MS,
    warnings,
  };
}

export function isPgliteUrl(url: string): boolean {
  return url.startsWith('pglite:');
}

import { createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { readModelKeys } from '@honeylend/contracts';
import { openEventStore, type EventStore } from '@honeylend/eventstore';
import { allProjections, ProjectionRunner } from '@honeylend/projections';
import { createLogger, startApiServer, startVerificationWorker, type ApiServer, type LogLevel } from '@honeylend/command-api';
import { startWorkers } from '@honeylend/workers';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const SUPERADMIN = { username: 'admin', password: 'main-admin-password-1' };
/** PAYMENT_WEBHOOK_SECRET of the test system: the payment provider's signing key. */
export const TEST_WEBHOOK_SECRET = 'test-payment-webhook-secret-32-characters-long';
/** Test systems register every borrower from 127.0.0.1: the per-address sign-up limit is raised far above their needs. */
export const TEST_REGISTRATIONS_PER_HOUR = 1_000_000;

export interface TestSystem {
  baseUrl: string;
  store: EventStore;
  redis: Redis;
  keyPrefix: string;
  uploadDir: string;
  api: ApiServer;
  /** The key that signs this system's checkpoints (the API trusts its public half). */
  auditSigningKey: KeyObject;
  /** Every log line the API wrote during the test. */
  logLines: string[];
  request(method: string, path: string, options?: { body?: unknown; token?: string; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Headers }>;
  /** Another API node on the same event store and Redis (as a second container would be); `privacyNoticeVersion`: one holding members to another notice. */
  startApiNode(options?: { privacyNoticeVersion?: string }): Promise<ApiServer>;
  /** POSTs a multipart upload with one field `file`. */
  upload(path: string, file: { bytes: Uint8Array; name: string; type: string }, token?: string): Promise<{ status: number; body: any }>;
  /** Stops the projection runner (the read models then stand still, as when it is down or far behind). */
  stopProjections(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The API and the projections in this process, over a real event store (in-memory PGlite unless
 * given a URL or a store, which it then closes on stop) and the real Redis under a key prefix of
 * its own, answering real HTTP on a free port.
 */
export async function startTestSystem(
  options: {
    eventStoreUrl?: string;
    store?: EventStore;
    now?: () => Date;
    trustedProxies?: string;
    logLevel?: LogLevel;
    /** REGISTRATIONS_PER_HOUR_PER_ADDRESS; by default high, as every test borrower registers from 127.0.0.1. */
    registrationsPerHourPerAddress?: number;
    /** Another Redis (or database of it) than REDIS_URL. */
    redisUrl?: string;
    /** The key prefix, by default one of its own; the system deletes its keys on stop. */
    keyPrefix?: string;
  } = {},
): Promise<TestSystem> {
  const keyPrefix = options.keyPrefix ?? `test-${randomUUID()}:`;
  const redisUrl = options.redisUrl ?? REDIS_URL;
  const store = options.store ?? (await openEventStore(options.eventStoreUrl ?? 'pglite:memory'));
  const logLines: string[] = [];
  const uploadDir = mkdtempSync(join(tmpdir(), 'honeylend-uploads-'));
  const logger = createLogger('test', { level: options.logLevel ?? 'info', write: (line) => void logLines.push(line) });
  const projectionRedis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const runner = new ProjectionRunner({ store, redis: projectionRedis, keys: readModelKeys(keyPrefix), projections: allProjections, logger });
  const auditSigningKey = generateKeyPairSync('ed25519').privateKey;
  const controller = new AbortController();
  const projecting = runner.run(controller.signal);
  const startApiNode = (superadmin?: typeof SUPERADMIN, privacyNoticeVersion?: string) =>
    startApiServer({
      ...(privacyNoticeVersion ? { privacyNoticeVersion } : {}),
      store,
      redisUrl,
      keyPrefix,
      jwtSecret: 'test-secret-that-is-long-enough-for-hs256',
      uploadDir,
      port: 0,
      host: '127.0.0.1',
      superadmin,
      env: {
        NODE_ENV: 'test',
        PAYMENT_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
        REGISTRATIONS_PER_HOUR_PER_ADDRESS: String(options.registrationsPerHourPerAddress ?? TEST_REGISTRATIONS_PER_HOUR),
        ...(options.trustedProxies ? { TRUSTED_PROXIES: options.trustedProxies } : {}),
      },
      logger,
      now: options.now,
      auditTrustedKeys: [createPublicKey(auditSigningKey)],
    });
  const extraNodes: ApiServer[] = [];
  const api = await startApiNode(SUPERADMIN);
  // The workers deliver OTP codes to the development outbox; rates point at a closed local port, never the network.
  const workerEnv = { NODE_ENV: 'test', SMS_SENDER: 'outbox', RATES_URL: 'http://127.0.0.1:9/latest/PHP' };
  const workers = await startWorkers({ redisUrl, keyPrefix, env: workerEnv, logger });
  // The auditors' verifications run beside them, as in the workers role.
  const verification = await startVerificationWorker({ store, redisUrl, keyPrefix, trustedKeys: [createPublicKey(auditSigningKey)], logger, now: options.now ?? (() => new Date()), name: 'workers' });
  const redis = new Redis(redisUrl);
  const baseUrl = `http://127.0.0.1:${api.port}`;

  return {
    baseUrl,
    store,
    redis,
    keyPrefix,
    uploadDir,
    api,
    auditSigningKey,
    logLines,
    async request(method, path, { body, token, headers = {} } = {}) {
      const response = await fetch(baseUrl + path, {
        method,
        headers: {
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // not JSON: keep the text, the test will say so
      }
      return { status: response.status, body: parsed, headers: response.headers };
    },
    async startApiNode(nodeOptions = {}) {
      const node = await startApiNode(undefined, nodeOptions.privacyNoticeVersion);
      extraNodes.push(node);
      return node;
    },
    async upload(path, file, token) {
      const form = new FormData();
      form.append('file', new Blob([file.bytes], { type: file.type }), file.name);
      const response = await fetch(baseUrl + path, { method: 'POST', body: form, headers: token ? { Authorization: `Bearer ${token}` } : {} });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: the test will say so
      }
      return { status: response.status, body };
    },
    async stopProjections() {
      controller.abort();
      await projecting.catch(() => undefined);
    },
    async stop() {
      for (const node of extraNodes) await node.close();
      await api.close();
      await workers.close();
      await verification.close();
      controller.abort();
      await projecting.catch(() => undefined);
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length) await redis.del(...keys);
      } while (cursor !== '0');
      redis.disconnect();
      projectionRedis.disconnect();
      await store.close();
      rmSync(uploadDir, { recursive: true, force: true });
    },
  };
}

let phoneCounter = 0;
/** A distinct valid Philippine mobile number per call (09xx…). */
export function uniquePhone(): string {
  phoneCounter++;
  const digits = String((Date.now() % 10_000_000) * 100 + (phoneCounter % 100))
    .padStart(9, '0')
    .slice(-9);
  return `09${digits}`;
}

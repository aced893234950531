import { execFile } from 'node:child_process';
import { existsSync, statfsSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname } from 'node:path';
import { Redis } from 'ioredis';
import { createJobKeys, manilaDate, readModelKeys } from '@honeylend/contracts';
import { openEventStore, storeIdentityOf, type EventStore } from '@honeylend/eventstore';
import { allProjections, projectionLag } from '@honeylend/projections';
import { createSmsSender } from '@honeylend/workers';
import type { Config } from '../config.js';
import { findRedisServer } from '../ownRedis.js';

export type Status = 'ok' | 'warn' | 'fail';

/** One line of the doctor's table: what was checked, how it stands, what was found, and the fix when it is not ok. */
export interface Finding {
  check: string;
  status: Status;
  detail: string;
  fix?: string;
}

const GiB = 1024 ** 3;
/** Below these, uploads and the embedded log soon stop being written. */
const DISK_FAIL_BYTES = 0.5 * GiB;
const DISK_WARN_BYTES = 2 * GiB;
/** Clocks further apart than this make token expiry, OTP lifetimes and business dates disagree between machines. */
const CLOCK_WARN_MS = 500;
const CLOCK_FAIL_MS = 2_000;
/** A projection this far behind means read models (and answers) are stale. */
const LAG_WARN_SECONDS = 5;
const LAG_FAIL_SECONDS = 60;
const BULLMQ_MINIMUM_REDIS = [6, 2];

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

function infoField(info: string, field: string): string | undefined {
  return new RegExp(`^${field}:(.*)$`, 'm').exec(info)?.[1]?.trim();
}

/** Redis: answers, its version, the memory policy BullMQ needs, and whether it keeps its data across a restart. */
export async function checkRedis(config: Config): Promise<{ findings: Finding[]; redis: Redis | null }> {
  const redis = new Redis(config.redisUrl, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0, retryStrategy: () => null, commandTimeout: 3_000 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    if (!config.redisUrlGiven && findRedisServer()) {
      return {
        findings: [
          {
            check: 'Redis',
            status: 'warn',
            detail: `nothing answers at ${config.redisUrl} (${describe(error)}); lending start will start its own redis-server`,
            fix: 'the split roles (api, projections, workers) need REDIS_URL pointing at a shared Redis',
          },
        ],
        redis: null,
      };
    }
    return {
      findings: [
        {
          check: 'Redis',
          status: 'fail',
          detail: `no answer at ${config.redisUrl} (${describe(error)})`,
          fix: 'start Redis (redis-server --daemonize yes; Debian: apt-get install redis-server) or set REDIS_URL to a running one',
        },
      ],
      redis: null,
    };
  }
  const findings: Finding[] = [];
  const server = await redis.info('server');
  const version = infoField(server, 'redis_version') ?? 'unknown';
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const recent = major > BULLMQ_MINIMUM_REDIS[0] || (major === BULLMQ_MINIMUM_REDIS[0] && minor >= BULLMQ_MINIMUM_REDIS[1]);
  findings.push(
    recent
      ? { check: 'Redis', status: 'ok', detail: `${version} at ${config.redisUrl}` }
      : { check: 'Redis', status: 'fail', detail: `${version} at ${config.redisUrl}: older than the 6.2 BullMQ needs`, fix: 'upgrade Redis to 6.2 or later' },
  );
  const memory = await redis.info('memory');
  const policy = infoField(memory, 'maxmemory_policy') ?? 'unknown';
  findings.push(
    policy === 'noeviction'
      ? { check: 'Redis memory policy', status: 'ok', detail: 'noeviction (jobs and read models are never evicted)' }
      : {
          check: 'Redis memory policy',
          status: 'fail',
          detail: `${policy}: under memory pressure Redis would drop queued jobs and read models`,
          fix: 'CONFIG SET maxmemory-policy noeviction (and maxmemory-policy noeviction in redis.conf)',
        },
  );
  const persistence = await redis.info('persistence');
  const aof = infoField(persistence, 'aof_enabled') === '1';
  const rdb = await redis
    .config('GET', 'save')
    .then((answer) => String((answer as string[])[1] ?? '').trim() !== '')
    .catch(() => false);
  findings.push(
    aof
      ? { check: 'Redis persistence', status: 'ok', detail: 'append-only file on' }
      : rdb
        ? { check: 'Redis persistence', status: 'warn', detail: 'snapshots only: a crash loses the jobs queued since the last one', fix: 'CONFIG SET appendonly yes (and appendonly yes in redis.conf)' }
        : {
            check: 'Redis persistence',
            status: 'warn',
            detail: 'none: a restart empties the queues (read models can be rebuilt with lending replay)',
            fix: 'CONFIG SET appendonly yes (and appendonly yes in redis.conf)',
          },
  );
  return { findings, redis };
}

/** The event store: adapter, answers, head position, and each projection's lag. */
export async function checkEventStore(config: Config, redis: Redis | null): Promise<Finding[]> {
  const adapter = /^[a-z+]+/.exec(config.eventStoreUrl)?.[0] ?? 'unknown';
  const embedded = config.eventStoreUrl.startsWith('pglite:') ? config.eventStoreUrl.slice('pglite:'.length) : null;
  if (embedded !== null && embedded !== 'memory' && !existsSync(embedded)) {
    // Opening it would create it: the doctor only looks.
    return [{ check: 'Event store', status: 'ok', detail: `pglite: no log yet at ${embedded} (lending start creates it)` }];
  }
  let store: EventStore;
  try {
    store = await openEventStore(config.eventStoreUrl);
  } catch (error) {
    return [{ check: 'Event store', status: 'fail', detail: `${adapter}: does not answer (${describe(error)})`, fix: 'start it, or correct EVENTSTORE_URL (pglite:<dir>, postgres://…, esdb://…)' }];
  }
  try {
    const head = await store.headPosition();
    const findings: Finding[] = [{ check: 'Event store', status: 'ok', detail: `${store.kind}, answers, head position ${head}` }];
    if (!redis) return findings;
    const keys = readModelKeys(config.redisKeyPrefix);
    const [built, identity] = await Promise.all([redis.get(keys.storeIdentity), storeIdentityOf(store)]);
    if (built !== null && built !== identity) {
      findings.push({
        check: 'Read models',
        status: 'fail',
        detail: `built from another event store (${built}); this one is ${identity}, and the projections refuse to mix them`,
        fix: 'lending replay rebuilds them from this store',
      });
      return findings;
    }
    const lags = await projectionLag({ store, redis, keys, projections: allProjections });
    const worst = lags.reduce((a, b) => (b.seconds > a.seconds || (b.seconds === a.seconds && b.events > a.events) ? b : a));
    const behind = lags.filter((lag) => lag.events > 0);
    const detail = behind.length === 0 ? `all ${lags.length} caught up at position ${worst.checkpoint}` : behind.map((lag) => `${lag.projection} ${lag.events} events / ${lag.seconds.toFixed(1)} s behind`).join(', ');
    const fix = 'start the projections (lending projections, or lending start); if they run, read their log; lending replay rebuilds every read model';
    if (worst.seconds > LAG_FAIL_SECONDS) findings.push({ check: 'Projection lag', status: 'fail', detail, fix });
    else if (worst.seconds > LAG_WARN_SECONDS) findings.push({ check: 'Projection lag', status: 'warn', detail, fix });
    else findings.push({ check: 'Projection lag', status: 'ok', detail });
    return findings;
  } catch (error) {
    return [{ check: 'Event store', status: 'fail', detail: `${adapter}: ${describe(error)}`, fix: 'check EVENTSTORE_URL and the store' }];
  } finally {
    await store.close().catch(() => undefined);
  }
}

/** What anything but development and test refuses to start without, checked whatever NODE_ENV says (a warning where the defaults are allowed). */
export function checkSecrets(env: NodeJS.ProcessEnv, secretsRequired: boolean): Finding[] {
  const missing: { name: string; rule: string }[] = [];
  if ((env.JWT_SECRET ?? '').length < 32) missing.push({ name: 'JWT_SECRET', rule: 'JWT_SECRET (32+ random characters)' });
  if ((env.OTP_SECRET ?? '').length < 32) missing.push({ name: 'OTP_SECRET', rule: 'OTP_SECRET (32+ random characters)' });
  if (!env.ADMIN_USERNAME?.trim() || (env.ADMIN_PASSWORD ?? '').length < 10) missing.push({ name: 'ADMIN_USERNAME/ADMIN_PASSWORD', rule: 'ADMIN_USERNAME and ADMIN_PASSWORD (10+ characters)' });
  if (missing.length === 0) return [{ check: 'Secrets', status: 'ok', detail: 'JWT_SECRET, OTP_SECRET and the main admin are set' }];
  const names = missing.map(({ name }) => name).join(', ');
  const fix = `set ${missing.map(({ rule }) => rule).join(', ')}, e.g. JWT_SECRET=$(openssl rand -hex 32)`;
  return [
    secretsRequired
      ? { check: 'Secrets', status: 'fail', detail: `NODE_ENV=${env.NODE_ENV} without ${names}`, fix }
      : { check: 'Secrets', status: 'warn', detail: `development defaults for ${names} (refused outside development and test)`, fix },
  ];
}

/** Backups hold every member's personal data: in production they are sealed with BACKUP_ENCRYPTION_KEY. */
export function checkBackupEncryption(config: Config): Finding[] {
  if (config.backupEncryptionKey) return [{ check: 'Backup encryption', status: 'ok', detail: 'BACKUP_ENCRYPTION_KEY is set: lending backup seals the file with AES-256-GCM' }];
  const detail = 'BACKUP_ENCRYPTION_KEY is not set: lending backup writes every member’s personal data in the clear';
  const fix = 'set BACKUP_ENCRYPTION_KEY to 32 random bytes (openssl rand -base64 32), kept apart from the backups';
  return [config.isProduction ? { check: 'Backup encryption', status: 'warn', detail, fix } : { check: 'Backup encryption', status: 'ok', detail: `${detail} (outside production)` }];
}

function reachable(url: URL, timeoutMs = 3_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const socket = connect({ host: url.hostname, port, timeout: timeoutMs });
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error(`no connection within ${timeoutMs / 1000} s`));
    });
    socket.once('error', reject);
  });
}

/** The SMS sender the workers would build, and — for the HTTP gateway — that its host takes connections (nothing is sent). */
export async function checkSms(env: NodeJS.ProcessEnv): Promise<Finding[]> {
  const kind = env.SMS_SENDER || 'outbox';
  try {
    createSmsSender(env, { redis: {} as Redis, keys: createJobKeys(''), logger: { info() {}, warn() {}, error() {} } });
  } catch (error) {
    return [{ check: 'SMS sender', status: 'fail', detail: `${kind}: ${describe(error)}`, fix: 'set SMS_SENDER=http with SMS_GATEWAY_URL and SMS_API_KEY' }];
  }
  if (kind !== 'http') return [{ check: 'SMS sender', status: 'ok', detail: 'outbox: texts stay in the development outbox (GET /api/dev/outbox); production refuses it' }];
  const gateway = new URL(env.SMS_GATEWAY_URL!);
  try {
    await reachable(gateway);
    return [{ check: 'SMS sender', status: 'ok', detail: `http gateway ${gateway.host} takes connections` }];
  } catch (error) {
    return [{ check: 'SMS sender', status: 'fail', detail: `http gateway ${gateway.host} unreachable (${describe(error)})`, fix: 'check SMS_GATEWAY_URL and the network to it' }];
  }
}

/** Free space where uploads and the embedded log are written. */
export function checkDisk(config: Config): Finding[] {
  const places = [
    { what: 'uploads', path: config.uploadDir },
    { what: 'data', path: config.dataDir },
  ];
  return places.map(({ what, path }) => {
    let existing = path;
    while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
    const stats = statfsSync(existing);
    const free = stats.bavail * stats.bsize;
    const detail = `${path}: ${(free / GiB).toFixed(1)} GiB free`;
    const fix = `free space on the disk holding ${path}, or point ${what === 'uploads' ? 'UPLOAD_DIR' : 'DATA_DIR'} at a larger one`;
    if (free < DISK_FAIL_BYTES) return { check: `Disk (${what})`, status: 'fail', detail, fix };
    if (free < DISK_WARN_BYTES) return { check: `Disk (${what})`, status: 'warn', detail, fix };
    return { check: `Disk (${what})`, status: 'ok', detail };
  });
}

function ntpSynchronized(): Promise<boolean | null> {
  return new Promise((resolve) => {
    execFile('timedatectl', ['show', '--property=NTPSynchronized', '--value'], { timeout: 3_000 }, (error, stdout) => {
      if (error) return resolve(null);
      const answer = stdout.trim();
      resolve(answer === 'yes' ? true : answer === 'no' ? false : null);
    });
  });
}

/**
 * The clock: synchronised by NTP (where timedatectl can tell), agreeing with Redis's clock (another
 * machine in a deployment), and the business date it makes in Manila.
 */
export async function checkClock(redis: Redis | null, now: () => Date = () => new Date()): Promise<Finding[]> {
  const findings: Finding[] = [];
  const synced = await ntpSynchronized();
  let skewMs: number | null = null;
  if (redis) {
    const before = Date.now();
    const [seconds, micros] = await redis.time();
    const after = Date.now();
    skewMs = Math.round(Number(seconds) * 1000 + Number(micros) / 1000 - (before + after) / 2);
  }
  const skew = skewMs === null ? 'Redis not reached to compare' : `${Math.abs(skewMs)} ms from Redis's clock`;
  const ntp = synced === true ? 'NTP synchronised' : synced === false ? 'NTP not synchronised' : 'NTP status unknown (no timedatectl)';
  const fix = 'run an NTP client (chrony or systemd-timesyncd) on every machine';
  if (synced === false || (skewMs !== null && Math.abs(skewMs) > CLOCK_FAIL_MS)) findings.push({ check: 'Clock', status: 'fail', detail: `${ntp}; ${skew}`, fix });
  else if (synced === null || (skewMs !== null && Math.abs(skewMs) > CLOCK_WARN_MS)) findings.push({ check: 'Clock', status: 'warn', detail: `${ntp}; ${skew}`, fix });
  else findings.push({ check: 'Clock', status: 'ok', detail: `${ntp}; ${skew}` });
  const at = now();
  const manilaTime = at.toLocaleTimeString('en-PH', { timeZone: 'Asia/Manila', hour: '2-digit', minute: '2-digit', hour12: false });
  findings.push({ check: 'Business date', status: 'ok', detail: `${manilaDate(at)} in Manila (${manilaTime} Asia/Manila)` });
  return findings;
}

import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { UserAnswer } from '@honeylend/contracts';
import { openEventStore, type EventStore } from '@honeylend/eventstore';
import { freePort, type RunContext } from './context.js';
import { JsonClient } from './http.js';
import { spawnLending, waitReady, type Child } from './processes.js';
import { BENCH_PASSWORD, seedVerifiedMembers, type SeededMember } from './seedMembers.js';
import { borrowerToken } from './tokens.js';

export type SystemKind = 'pglite' | 'postgres';

export interface RunningSystem {
  kind: SystemKind;
  baseUrl: string;
  /** The process serving HTTP and Socket.IO (all roles for PGlite). */
  api: Child;
  children: Child[];
  keyPrefix: string;
  members: SeededMember[];
  tokens: string[];
  client: JsonClient;
  seedSeconds: number;
  startSeconds: number;
  eventStoreUrl: string;
  /**
   * Replaces the API process with a fresh one on the same port (split roles only): a process that
   * has served the other scenarios keeps the heap they grew, and sockets measured in it would
   * seem to cost nothing (or less than nothing) of RSS.
   */
  restartApi(): Promise<void>;
  /**
   * Starts `count` more `lending api` processes on ports of their own, beside the first (the cli has
   * no cluster mode and Node has no SO_REUSEPORT: the load generator spreads its connections over
   * the ports instead, round robin). Each shares the event store, Redis and read models. `env`
   * replaces, for these processes, what `restartRoles` set over the usual environment; `name` names
   * their processes (logs, profiles).
   */
  startExtraApis(count: number, options?: { env?: Record<string, string>; name?: string }): Promise<{ urls: string[]; children: Child[]; stop(): Promise<void> }>;
  /**
   * Stops every role and starts them again with `env` over the usual environment (the same data),
   * waiting until they are ready: the logging and metrics comparison runs the same system both ways.
   */
  restartRoles(env: Record<string, string>): Promise<void>;
  /** The METRICS_PORT of every role started with one (the latest generation of processes). */
  metricsPorts: number[];
  /** The METRICS_PORT a process of this system serves its metrics on, if it does. */
  metricsPortOf(child: Child): number | undefined;
  stop(): Promise<void>;
}

/** Bulk loads skip the wait for the WAL flush; the system itself always runs with the server's durable default. */
export function seedingUrl(url: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent('-c synchronous_commit=off')}`;
}

/** What every `lending` role of one system sees; `kind` names its Redis keys and data directory. */
export function roleEnv(ctx: RunContext, kind: string, port: number, eventStoreUrl: string): Record<string, string> {
  return {
    PORT: String(port),
    REDIS_URL: ctx.redisUrl,
    REDIS_KEY_PREFIX: `${ctx.keyPrefix}${kind}:`,
    EVENTSTORE_URL: eventStoreUrl,
    DATA_DIR: join(ctx.dataDir, kind),
    // 'test' only because anything but development and test refuses the development SMS outbox the OTP
    // scenario reads; every secret is set as production requires, and logs are at warn.
    NODE_ENV: 'test',
    JWT_SECRET: ctx.jwtSecret,
    OTP_SECRET: ctx.otpSecret,
    ADMIN_USERNAME: 'bench-admin',
    ADMIN_PASSWORD: ctx.adminPassword,
    LOG_LEVEL: 'warn',
    SMS_SENDER: 'outbox',
    // Every simulated borrower registers from 127.0.0.1.
    REGISTRATIONS_PER_HOUR_PER_ADDRESS: '1000000',
    // A closed local port: the rates worker must never reach the internet from a benchmark.
    RATES_URL: 'http://127.0.0.1:9/latest/PHP',
  };
}

/**
 * Seeds `ctx.options.members` verified borrowers through the store port, then starts the system:
 * `lending start` on PGlite, or `lending projections`, `lending workers` and `lending api` as
 * separate processes on PostgreSQL. Resolves once the read models have caught up.
 */
export async function startSystem(ctx: RunContext, kind: SystemKind, log: (line: string) => void, name: string = kind): Promise<RunningSystem> {
  const port = await freePort();
  // `name` keeps two systems of one kind in one run apart: their schema, Redis keys and data directory.
  const dataDir = join(ctx.dataDir, name);
  mkdirSync(dataDir, { recursive: true });
  const eventStoreUrl = kind === 'pglite' ? `pglite:${join(dataDir, 'events')}` : `${ctx.postgresUrl}?schema=${ctx.schemaPrefix}_${name}`;

  const seedStarted = Date.now();
  const store: EventStore = await openEventStore(kind === 'pglite' ? eventStoreUrl : seedingUrl(eventStoreUrl));
  let members: SeededMember[];
  try {
    members = await seedVerifiedMembers(store, ctx.options.members, kind === 'pglite' ? 1 : 8);
  } finally {
    await store.close();
  }
  const seedSeconds = (Date.now() - seedStarted) / 1000;
  log(`  seeded ${members.length} verified members (${members.length * 10} events) in ${seedSeconds.toFixed(1)} s`);

  if (ctx.interrupt.signal.aborted) throw new Error('interrupted');
  const env = roleEnv(ctx, name, port, eventStoreUrl);
  // Each process serves its metrics as a deployment's would (METRICS_PORT), so their cost is in every figure.
  let overrides: Record<string, string> = {};
  const metricsPorts: number[] = [];
  // METRICS_PORT '' in the overrides: no metrics server (the observability switch is whether it is served).
  const spawnOptions = async (port_?: number, env_: Record<string, string> = overrides) => {
    const merged: Record<string, string> = { ...env, METRICS_PORT: String(await freePort()), METRICS_HOST: '127.0.0.1', ...env_, ...(port_ ? { PORT: String(port_) } : {}) };
    if (merged.METRICS_PORT === '') delete merged.METRICS_PORT;
    else metricsPorts.push(Number(merged.METRICS_PORT));
    return { env: merged, logDir: ctx.logDir, cpuProfDir: ctx.profileDir };
  };
  let generation = 0;
  const metricsPortOf = new Map<Child, number>();
  const spawnRole = async (role: 'start' | 'api' | 'projections' | 'workers', processName: string, listenPort?: number, env_?: Record<string, string>) => {
    const options = await spawnOptions(listenPort, env_);
    const child = spawnLending(role, processName, options);
    if (options.env.METRICS_PORT) metricsPortOf.set(child, Number(options.env.METRICS_PORT));
    return child;
  };
  // Process names (logs, profiles): pg-api, or servicing-api for a second PostgreSQL system.
  const tagOf = name === kind ? 'pg' : name;
  const started = Date.now();
  const children: Child[] = [];
  let api: Child;
  if (kind === 'pglite') {
    api = await spawnRole('start', 'pglite-start');
    children.push(api);
  } else {
    children.push(await spawnRole('projections', `${tagOf}-projections`));
    children.push(await spawnRole('workers', `${tagOf}-workers`));
    api = await spawnRole('api', `${tagOf}-api`);
    children.push(api);
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    activeClient.close();
    // The API first, as `lending start` does: no command arrives while the others wind down.
    for (const child of [...children].reverse()) await child.stop();
  };
  const client = new JsonClient(baseUrl, 256);
  let activeClient = client;
  try {
    await waitReady(baseUrl, children, 120_000);
  } catch (error) {
    await stop();
    throw error;
  }
  const startSeconds = (Date.now() - started) / 1000;
  log(`  ${kind === 'pglite' ? 'lending start (PGlite)' : 'lending projections + workers + api (PostgreSQL)'} ready in ${startSeconds.toFixed(1)} s on ${baseUrl}`);

  const tokens = members.map((member) => borrowerToken(ctx.jwtSecret, member.id));
  // The seeded members are real borrowers: one signs in with the seeded password, and the profile answers verified.
  const login = await client.call('POST', '/api/auth/login', { body: { phone: members[0].localPhone, password: BENCH_PASSWORD } });
  if (login.status !== 200) throw new Error(`a seeded member could not sign in: ${login.status} ${JSON.stringify(login.body)}`);
  const profile = await client.call<UserAnswer>('GET', '/api/user/profile', { token: tokens[members.length - 1] });
  if (profile.status !== 200 || profile.body?.verified !== true) {
    throw new Error(`a seeded member is not verified: ${profile.status} ${JSON.stringify(profile.body)}`);
  }
  const system: RunningSystem = {
    kind,
    baseUrl,
    api,
    children,
    keyPrefix: env.REDIS_KEY_PREFIX,
    members,
    tokens,
    client,
    seedSeconds,
    startSeconds,
    eventStoreUrl,
    metricsPorts,
    metricsPortOf: (child) => metricsPortOf.get(child),
    stop,
    async restartApi() {
      if (kind !== 'postgres') throw new Error('only the split roles can restart the API alone');
      system.client.close();
      await system.api.stop();
      children.splice(children.indexOf(system.api), 1);
      system.api = await spawnRole('api', `${tagOf}-api-fresh`);
      children.push(system.api);
      await waitReady(baseUrl, children, 120_000);
      system.client = activeClient = new JsonClient(baseUrl, 256);
    },
    async startExtraApis(count, { env: env_, name: name_ = 'api-scale' } = {}) {
      if (kind !== 'postgres') throw new Error('only the split roles can run more API processes');
      const extra: Child[] = [];
      const urls: string[] = [];
      const stopExtra = async () => {
        for (const child of extra) await child.stop();
      };
      try {
        for (let n = 1; n <= count; n++) {
          const extraPort = await freePort();
          extra.push(await spawnRole('api', `${tagOf}-${name_}-${n + 1}`, extraPort, env_));
          urls.push(`http://127.0.0.1:${extraPort}`);
        }
        for (const url of urls) await waitReady(url, [...children, ...extra], 120_000);
      } catch (error) {
        await stopExtra();
        throw error;
      }
      return { urls, children: extra, stop: stopExtra };
    },
    async restartRoles(env_) {
      if (kind !== 'postgres') throw new Error('only the split roles are restarted one by one');
      system.client.close();
      for (const child of [...children].reverse()) await child.stop();
      children.length = 0;
      metricsPorts.length = 0;
      overrides = env_;
      generation++;
      children.push(await spawnRole('projections', `${tagOf}-projections-gen${generation}`));
      children.push(await spawnRole('workers', `${tagOf}-workers-gen${generation}`));
      system.api = await spawnRole('api', `${tagOf}-api-gen${generation}`, port);
      children.push(system.api);
      await waitReady(baseUrl, children, 120_000);
      system.client = activeClient = new JsonClient(baseUrl, 256);
    },
  };
  return system;
}

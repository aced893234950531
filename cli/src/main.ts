import { createLogger, type Logger } from '@honeylend/command-api';
import { redactEventData } from '@honeylend/contracts';
import type { EventStore } from '@honeylend/eventstore';
import { parseVerifyArguments, UsageError, verifyCommand, VERIFY_USAGE } from './audit/verifyCommand.js';
import { publicKeyCommand } from './audit/publicKeyCommand.js';
import { ConfigError, isPgliteUrl, loadConfig, type Config } from './config.js';
import { checkRedis } from './redisCheck.js';
import { replay } from './replay.js';
import { startMetricsRole } from './metricsRole.js';
import { backupCommand, restoreCommand } from './backup/backupCommands.js';
import { seedCommand, SEED_USAGE } from './seed/seedCommand.js';
import { provideRedis, RedisNotInstalled, type OwnRedis } from './ownRedis.js';
import { doctorCommand } from './doctor/doctorCommand.js';
import { openStore, startApiRole, startProjectionsRole, startWorkersRole, type RunningRole } from './roles.js';

const USAGE = `lending — Honeylend

  lending start           every role in one process (API + web, projections, workers)
  lending api             the HTTP API, Socket.IO and the web app
  lending projections     the read-model projections
  lending workers         the BullMQ workers (OTP, notifications, exchange rates)
  lending replay          rebuild every read model from the event log and swap it in
  lending audit <stream>  print a stream's history, e.g. lending audit member-<id>
  ${VERIFY_USAGE}
                          check the log's hash chain and signed checkpoints
  lending audit public-key
                          print the public key that checks the checkpoints' signatures
  lending backup FILE     write the whole log to FILE (gzip NDJSON), while the system runs
  lending restore FILE    load a backup into an empty event store, verified (then: lending replay)
  lending doctor          check what the system needs (Redis, event store, secrets, SMS, disk, clock)
  ${SEED_USAGE}
                          a living demo (200 members over 120 days) into an empty event store

Configuration comes from the environment; see README.md.`;

const SHUTDOWN_LIMIT_MS = 5_000;

/** A one-line message for the person at the terminal, and a non-zero exit: no stack trace. */
function fail(message: string): never {
  process.stderr.write(`lending: ${message}\n`);
  process.exit(1);
}

async function requireRedis(config: Config): Promise<void> {
  try {
    await checkRedis(config.redisUrl);
  } catch {
    fail(`Redis does not answer at REDIS_URL=${config.redisUrl}. Start it (e.g. \`redis-server --daemonize yes\`) or point REDIS_URL at a running Redis.`);
  }
}

async function openStoreOrFail(config: Config, logger: Logger): Promise<EventStore> {
  try {
    return await openStore(config);
  } catch (error) {
    logger.error('event store unavailable', { error: error instanceof Error ? error.message : String(error) });
    fail(`the event store at EVENTSTORE_URL does not answer (${error instanceof Error ? error.message : String(error)})`);
  }
}

async function runRoles(command: 'start' | 'api' | 'projections' | 'workers', config: Config): Promise<void> {
  // The workers run the day close on the event store too, so every split role needs a shared one.
  if (command !== 'start' && isPgliteUrl(config.eventStoreUrl)) {
    fail(`\`lending ${command}\` runs as its own process, but EVENTSTORE_URL is an embedded PGlite store that only one process can open. Use \`lending start\`, or set EVENTSTORE_URL to postgres://… or esdb://…`);
  }
  const logger = createLogger(command, { level: config.logLevel });
  for (const warning of config.warnings) logger.warn(warning);
  // The all-in-one start brings its own Redis when none is configured or running (ownRedis.ts).
  let ownRedis: OwnRedis | null = null;
  if (command === 'start') {
    try {
      ({ url: config.redisUrl, own: ownRedis } = await provideRedis({ ...config, logger }));
    } catch (error) {
      fail(error instanceof RedisNotInstalled ? error.message : `could not start a private redis-server: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  await requireRedis(config);

  const roles: RunningRole[] = [];
  const store = await openStoreOrFail(config, logger);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    const limit = setTimeout(() => {
      logger.error('shutdown took longer than 5 s; exiting');
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS);
    // The API stops first so no new command arrives while the projections and workers wind down.
    for (const role of [...roles].reverse()) {
      try {
        await role.stop();
      } catch (error) {
        logger.error('role did not stop cleanly', { role: role.name, error: error instanceof Error ? error.message : String(error) });
      }
    }
    await store?.close();
    await ownRedis?.stop();
    clearTimeout(limit);
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    const metrics = await startMetricsRole(config, store, logger);
    if (metrics) roles.push(metrics);
    if (command === 'start' || command === 'workers') roles.push(await startWorkersRole(config, store, logger));
    if (command === 'start' || command === 'projections') roles.push(await startProjectionsRole(config, store, logger));
    if (command === 'start' || command === 'api') roles.push(await startApiRole(config, store, logger));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') fail(`port ${config.port} is already in use; set PORT to a free port`);
    logger.error('failed to start', { error: error instanceof Error ? { message: error.message, stack: error.stack } : String(error) });
    fail(`could not start: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function audit(args: string[], config: Config): Promise<void> {
  const [stream, ...rest] = args;
  if (!stream) fail(`usage: lending audit <stream> (e.g. lending audit member-<id>), ${VERIFY_USAGE} or lending audit public-key`);
  if (stream === 'public-key') return publicKeyCommand(config);
  if (stream === 'verify') {
    let verifyArgs;
    try {
      verifyArgs = parseVerifyArguments(rest);
    } catch (error) {
      if (error instanceof UsageError) fail(error.message);
      throw error;
    }
    const store = await openStoreOrFail(config, createLogger('audit', { level: 'error' }));
    let exitCode: number;
    try {
      exitCode = await verifyCommand(config, store, verifyArgs);
    } finally {
      await store.close();
    }
    process.exitCode = exitCode;
    return;
  }
  const logger = createLogger('audit', { level: 'error' });
  const store = await openStoreOrFail(config, logger);
  try {
    const events = await store.readStream(stream);
    if (events.length === 0) process.stdout.write(`no events in stream ${stream}\n`);
    for (const event of events) {
      const { actorId = '-', ip = '-' } = event.metadata;
      process.stdout.write(`#${event.revision} ${event.createdAt} ${event.type} actor=${actorId} ip=${ip} position=${event.position}\n  ${JSON.stringify(redactEventData(event.data))}\n`);
    }
  } finally {
    await store.close();
  }
}

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (command === 'doctor') {
    // Before the configuration is loaded: a configuration problem is one of the doctor's findings.
    process.exitCode = await doctorCommand(process.env);
    return;
  }
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  switch (command) {
    case 'start':
    case 'api':
    case 'projections':
    case 'workers':
      return runRoles(command, config);
    case 'audit':
      return audit(rest, config);
    case 'backup':
      return backupCommand(rest[0], config);
    case 'restore':
      return restoreCommand(rest[0], config);
    case 'seed':
      return seedCommand(rest, config);
    case 'replay': {
      await requireRedis(config);
      const logger = createLogger('replay', { level: 'warn' });
      const store = await openStoreOrFail(config, logger);
      try {
        await replay(config, store, logger);
      } finally {
        await store.close();
      }
      return;
    }
    default:
      fail(`unknown command "${command}"\n\n${USAGE}`);
  }
}

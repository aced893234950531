import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join, resolve } from 'node:path';
import type { Logger } from '@honeylend/observability';
import { freePort } from './freePort.js';
import { checkRedis } from './redisCheck.js';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
const DEFAULT_PORT = 6379;
const READY_WITHIN_MS = 10_000;
const STOP_WITHIN_MS = 4_000;

/** A redis-server this process started, under the data directory. */
export interface OwnRedis {
  url: string;
  port: number;
  pid: number;
  dir: string;
  stop(): Promise<void>;
}

/** Redis is needed, none answers, and there is no redis-server to start: what to do, in one line. */
export class RedisNotInstalled extends Error {
  override readonly name = 'RedisNotInstalled';
  constructor(url: string) {
    super(
      `Redis does not answer at ${url} and redis-server is not installed to start one. Install it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) and run it again — lending start then starts its own — or set REDIS_URL to a running Redis.`,
    );
  }
}

/** The redis-server on PATH, if any. */
export function findRedisServer(path = process.env.PATH ?? ''): string | null {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, 'redis-server');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolvePort) => {
    const server = createServer();
    server.once('error', () => resolvePort(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolvePort(true)));
  });
}

/**
 * Starts a private redis-server for `lending start`: on 127.0.0.1 only, on 6379 when that port is
 * free (so `lending replay` and the other tools find it with their defaults) or else any free port,
 * its data under `<dataDir>/redis` (append-only file, fsync each second, so a restart keeps the
 * read models and the queued jobs), never evicting keys (BullMQ needs that). It is stopped with the
 * process: on a clean shutdown it saves and exits, and if this process exits any other way it is
 * sent SIGTERM on the way out.
 */
export async function startOwnRedis(binary: string, dataDir: string, logger: Logger): Promise<OwnRedis> {
  const dir = resolve(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  const port = (await portIsFree(DEFAULT_PORT)) ? DEFAULT_PORT : await freePort();
  const logFile = join(dir, 'redis.log');
  const child: ChildProcess = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--logfile', logFile, '--appendonly', 'yes', '--appendfsync', 'everysec', '--save', '', '--maxmemory-policy', 'noeviction', '--daemonize', 'no'],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  const url = `redis://127.0.0.1:${port}`;
  const lastLines = () => {
    try {
      return readFileSync(logFile, 'utf8').trim().split('\n').slice(-3).join(' | ');
    } catch {
      return 'no log';
    }
  };

  const deadline = Date.now() + READY_WITHIN_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      process.off('exit', killOnExit);
      throw new Error(`redis-server (${binary}) stopped as it started: ${lastLines()}`);
    }
    try {
      await checkRedis(url, 500);
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        process.off('exit', killOnExit);
        throw new Error(`redis-server (${binary}) did not answer on ${url} within ${READY_WITHIN_MS / 1000} s: ${lastLines()}`);
      }
      await new Promise((wait) => setTimeout(wait, 100));
    }
  }
  logger.info('started a private redis-server (REDIS_URL is unset and nothing answered on 127.0.0.1:6379)', { url, dir, pid: child.pid });

  return {
    url,
    port,
    pid: child.pid!,
    dir,
    async stop() {
      process.off('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_WITHIN_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Where `lending start` finds Redis: REDIS_URL when it is set (whether or not it answers: that is
 * the operator's choice), else the default address when a Redis answers there, else a private
 * redis-server it starts itself — or, without one installed, a RedisNotInstalled saying how to get it.
 */
export async function provideRedis(options: { redisUrlGiven: boolean; redisUrl: string; dataDir: string; logger: Logger; findBinary?: () => string | null }): Promise<{ url: string; own: OwnRedis | null }> {
  if (options.redisUrlGiven) return { url: options.redisUrl, own: null };
  try {
    await checkRedis(options.redisUrl);
    return { url: options.redisUrl, own: null };
  } catch {
    const binary = (options.findBinary ?? findRedisServer)();
    if (!binary) throw new RedisNotInstalled(options.redisUrl);
    const own = await startOwnRedis(binary, options.dataDir, options.logger);
    return { url: own.url, own };
  }
}

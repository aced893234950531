import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { freePort } from '../../../cli/src/testing/freePort.js';
import { eventually } from './waiting.js';

const run = promisify(execFile);

/**
 * Redis and PostgreSQL servers of a check's own, on free ports in temporary directories, that the
 * check may stop and start at will: the machine's shared servers, which other tests use, are never
 * touched. `stop()` ends the server (its clients see refused connections), `start()` brings it back
 * on the same port with the same data.
 */
export interface ThrowawayServer {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server for good and removes its directory. */
  destroy(): Promise<void>;
}

/**
 * `redis-server` without automatic snapshots or AOF; a stop is `SHUTDOWN SAVE`, so the restarted
 * server comes back with its data, as a production Redis with persistence does after a restart.
 */
export async function startThrowawayRedis(): Promise<ThrowawayServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'honeylend-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;
  const start = async () => {
    server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no'], { stdio: 'ignore' });
    await eventually(
      `redis-server on port ${port}`,
      20_000,
      async () => {
        const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
        probe.on('error', () => undefined);
        try {
          await probe.connect();
          return (await probe.ping()) === 'PONG' ? true : undefined;
        } catch {
          return undefined;
        } finally {
          probe.disconnect();
        }
      },
      100,
    );
  };
  const stop = async () => {
    const current = server;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise((resolve) => current.once('exit', resolve));
    const admin = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    admin.on('error', () => undefined);
    await admin.call('SHUTDOWN', 'SAVE').catch(() => undefined); // the connection closes as the server ends
    admin.disconnect();
    await exited;
  };
  await start();
  return {
    url,
    start,
    stop,
    async destroy() {
      await stop().catch(() => server?.kill('SIGKILL'));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The PostgreSQL binaries of the installed major version (Debian keeps them out of PATH). */
function postgresBin(program: string): string {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql');
  return `/usr/lib/postgresql/${versions[0]}/bin/${program}`;
}

/** initdb and the server refuse to run as root: as root they run as the `postgres` user. */
async function asPostgresUser(program: string, args: string[]): Promise<void> {
  const isRoot = process.getuid?.() === 0;
  await run(isRoot ? 'runuser' : program, isRoot ? ['-u', 'postgres', '--', program, ...args] : args, { timeout: 60_000 });
}

/**
 * A PostgreSQL cluster in a temporary directory, trust authentication, listening on 127.0.0.1 only;
 * `stop()` is a fast shutdown (clients are cut off and new connections refused), `start()` a
 * normal start. The event log survives both, as it would on a real database server's restart.
 */
export async function startThrowawayPostgres(): Promise<ThrowawayServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'honeylend-postgres-'));
  const dataDir = join(dir, 'data');
  if (process.getuid?.() === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(group.trim()));
  }
  chmodSync(dir, 0o700);
  await asPostgresUser(postgresBin('initdb'), ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const start = async () => {
    await asPostgresUser(postgresBin('pg_ctl'), ['-D', dataDir, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
    await eventually(`PostgreSQL on port ${port}`, 20_000, async () => {
      const client = new pg.Client({ connectionString: url });
      try {
        await client.connect();
        await client.query('SELECT 1');
        return true;
      } catch {
        return undefined;
      } finally {
        await client.end().catch(() => undefined);
      }
    });
  };
  const stop = () => asPostgresUser(postgresBin('pg_ctl'), ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
  await start();
  return {
    url,
    start,
    stop,
    async destroy() {
      await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

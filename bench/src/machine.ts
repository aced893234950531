import { cpus, freemem, loadavg, release, totalmem, type as osType } from 'node:os';
import { Redis } from 'ioredis';
import pg from 'pg';

export interface Machine {
  cores: number;
  cpuModel: string;
  memoryGb: number;
  freeMemoryGb: number;
  os: string;
  node: string;
  redis: string | null;
  postgres: string | null;
  loadAverageAtStart: number[];
}

export async function describeMachine(redisUrl: string, postgresUrl: string): Promise<Machine> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  let redisVersion: string | null = null;
  try {
    await redis.connect();
    redisVersion = /redis_version:(\S+)/.exec(await redis.info('server'))?.[1] ?? null;
  } catch {
    redisVersion = null;
  } finally {
    redis.disconnect();
  }
  let postgresVersion: string | null = null;
  const client = new pg.Client({ connectionString: postgresUrl });
  try {
    await client.connect();
    postgresVersion = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version ?? null;
  } catch {
    postgresVersion = null;
  } finally {
    await client.end().catch(() => undefined);
  }
  return {
    cores: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGb: Number((totalmem() / 1024 ** 3).toFixed(1)),
    freeMemoryGb: Number((freemem() / 1024 ** 3).toFixed(1)),
    os: `${osType()} ${release()}`,
    node: process.version,
    redis: redisVersion,
    postgres: postgresVersion,
    loadAverageAtStart: loadavg().map((value) => Number(value.toFixed(2))),
  };
}

/** Drops every schema this run created (names start with the run's own prefix). */
export async function dropSchemas(postgresUrl: string, schemaPrefix: string): Promise<string[]> {
  if (!/^bench_[0-9a-z_]+$/.test(schemaPrefix)) throw new Error(`refusing to drop schemas outside the bench's own prefix: ${schemaPrefix}`);
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>('SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1)', [schemaPrefix]);
    for (const { nspname } of rows) await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
    return rows.map((row) => row.nspname);
  } finally {
    await client.end();
  }
}

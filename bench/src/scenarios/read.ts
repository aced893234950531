import { join } from 'node:path';
import { Redis } from 'ioredis';
import { readModelKeys } from '@honeylend/contracts';
import { freePort, type RunContext } from '../context.js';
import { runLoad, type LoadResult } from '../load.js';
import { spawnNode, REPO_ROOT } from '../processes.js';
import { until } from '../stats.js';
import type { RunningSystem } from '../system.js';

/**
 * Scenario 1: a bare Koa server answering one Redis GET, in its own process, loaded exactly as the
 * read API is (same connections, same duration, same load generator). The value it serves is a real
 * member document from the read models, so both answer the same bytes from the same Redis.
 */
export async function baselineScenario(ctx: RunContext, system: RunningSystem, { connections, durationSeconds }: { connections: number; durationSeconds: number }): Promise<LoadResult> {
  const redis = new Redis(ctx.redisUrl);
  const key = `${ctx.keyPrefix}baseline:doc`;
  try {
    const doc = await redis.get(readModelKeys(system.keyPrefix).member(system.members[0].id));
    if (!doc) throw new Error('no member document to serve from the baseline');
    await redis.set(key, doc);
  } finally {
    redis.disconnect();
  }
  const port = await freePort();
  const server = spawnNode('baseline', join(REPO_ROOT, 'bench/dist/baselineServer.js'), [], {
    env: { PORT: String(port), REDIS_URL: ctx.redisUrl, BASELINE_KEY: key, NODE_ENV: 'bench' },
    logDir: ctx.logDir,
    cpuProfDir: ctx.profileDir,
  });
  try {
    const url = `http://127.0.0.1:${port}`;
    await until('the baseline server', async () => ((await fetch(url)).status === 200 ? true : undefined), 10_000, 100);
    return await runLoad({ url, connections, durationSeconds, next: () => ({ method: 'GET', path: '/' }) });
  } finally {
    await server.stop();
  }
}

/** Scenario 2: one read endpoint with the tokens of every seeded member in turn. */
export async function readScenario(system: RunningSystem, path: string, { connections, durationSeconds }: { connections: number; durationSeconds: number }): Promise<LoadResult> {
  let k = 0;
  return runLoad({
    url: system.baseUrl,
    connections,
    durationSeconds,
    next: () => ({ method: 'GET', path, headers: { authorization: `Bearer ${system.tokens[k++ % system.tokens.length]}` } }),
  });
}

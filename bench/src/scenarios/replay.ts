import { generateKeyPairSync } from 'node:crypto';
import { Redis } from 'ioredis';
import { openEventStore } from '@honeylend/eventstore';
import type { RunContext } from '../context.js';
import { spawnLending } from '../processes.js';
import { seedReplayLog } from '../replayLog.js';
import { seedingUrl } from '../system.js';
import { deleteKeys } from '../cleanup.js';

export interface ReplayRun {
  events: number;
  members: number;
  seedSeconds: number;
  /** As `lending replay` reports it: rebuild into fresh keys plus the swap. */
  replaySeconds: number;
  eventsPerSecond: number;
  /** The whole `lending replay` process, start to exit. */
  wallSeconds: number;
  keys: number;
  microsPerEvent: number;
}

export interface ReplayResult {
  runs: ReplayRun[];
  /** Time per event at the largest size ÷ at the smallest: 1.0 is perfectly linear. */
  perEventRatio: number | null;
}

/**
 * Scenario 7: a log of the smallest size is appended through the store port (PostgreSQL), then
 * `lending replay` rebuilds it into an empty keyspace; the log is grown to each next size and
 * replayed again from position 0, each time into fresh keys.
 */
export async function replayScenario(ctx: RunContext, sizes: number[], activeMembers: number, log: (line: string) => void): Promise<ReplayResult> {
  const eventStoreUrl = `${ctx.postgresUrl}?schema=${ctx.schemaPrefix}_replay`;
  const runs: ReplayRun[] = [];
  let seeded = 0;
  let members = 0;
  const redis = new Redis(ctx.redisUrl);
  try {
    for (const size of sizes) {
      if (ctx.interrupt.signal.aborted) throw new Error('interrupted');
      const store = await openEventStore(seedingUrl(eventStoreUrl));
      let seedSeconds: number;
      try {
        const seeding = await seedReplayLog(store, { count: size - seeded, activeMembers, runId: ctx.runId, firstMember: members });
        seeded += seeding.events;
        members += seeding.members;
        seedSeconds = seeding.seconds;
      } finally {
        await store.close();
      }
      log(`  appended ${seeded.toLocaleString('en')} events in total (${members.toLocaleString('en')} borrowers) through the store port; this part took ${seedSeconds.toFixed(1)} s`);
      const prefix = `${ctx.keyPrefix}replay-${size}:`;
      const started = Date.now();
      const child = spawnLending('replay', `replay-${size}`, {
        env: {
          REDIS_URL: ctx.redisUrl,
          REDIS_KEY_PREFIX: prefix,
          EVENTSTORE_URL: eventStoreUrl,
          DATA_DIR: `${ctx.dataDir}/replay`,
          NODE_ENV: 'bench',
          JWT_SECRET: ctx.jwtSecret,
          ADMIN_USERNAME: 'bench-admin',
          ADMIN_PASSWORD: ctx.adminPassword,
          LOG_LEVEL: 'warn',
          // Required outside development since the auditor's signed checkpoints (issue 16): a key of this run's own.
          AUDIT_SIGNING_KEY: String(generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' })),
        },
        logDir: ctx.logDir,
        cpuProfDir: ctx.profileDir,
      });
      // Bounded: a rebuild that takes longer than this is reported as a failure rather than waited for.
      const limit = setTimeout(() => void child.stop(1_000), 480_000);
      const code = await child.exited;
      clearTimeout(limit);
      const wallSeconds = (Date.now() - started) / 1000;
      const match = /replayed (\d+) events into (\d+) read-model keys in ([\d.]+) s/.exec(child.stdout());
      if (code !== 0 || !match) throw new Error(`lending replay of ${size} events failed (exit ${code}); see ${ctx.logDir}/replay-${size}.log`);
      const events = Number(match[1]);
      const replaySeconds = Number(match[3]);
      runs.push({
        events,
        members,
        seedSeconds,
        replaySeconds,
        eventsPerSecond: events / replaySeconds,
        wallSeconds,
        keys: Number(match[2]),
        microsPerEvent: (replaySeconds * 1e6) / events,
      });
      log(`  lending replay: ${events.toLocaleString('en')} events in ${replaySeconds.toFixed(1)} s (${Math.round(events / replaySeconds).toLocaleString('en')} events/s), ${match[2]} keys`);
      // The rebuilt read models are not needed any more: free Redis before the next, larger one.
      await deleteKeys(redis, prefix);
    }
  } finally {
    redis.disconnect();
  }
  const first = runs[0];
  const last = runs[runs.length - 1];
  return { runs, perEventRatio: first && last && runs.length > 1 ? last.microsPerEvent / first.microsPerEvent : null };
}

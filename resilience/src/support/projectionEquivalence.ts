import { Redis } from 'ioredis';
import { expect } from 'vitest';
import { readModelKeys } from '@honeylend/contracts';
import { CHECKPOINT_EVENT_TYPE, CHECKPOINT_STREAM, type EventStore } from '@honeylend/eventstore';
import { allProjections, ProjectionRunner } from '@honeylend/projections';
import { changeFeedEntries } from './readModelComparison.js';
import { eventually } from './waiting.js';

/**
 * The log's signer runs beside the projections (design §10) and may append a signed checkpoint
 * after the last event a check wrote; runs the projections again until they have applied those
 * too, and refuses any other event past `head`. Answers how many checkpoints the log holds, for a
 * replay's event count.
 */
export async function applyTrailingCheckpoints(store: EventStore, head: number, appliedPosition: () => Promise<number>, startProjections: () => Promise<{ stop(): Promise<void> }>): Promise<number> {
  for (let settled = head; ;) {
    const after = await store.readAll({ from: settled, limit: 1_000 });
    expect(after.map((event) => event.type).filter((type) => type !== CHECKPOINT_EVENT_TYPE)).toEqual([]);
    if (after.length === 0) break;
    settled = await store.headPosition();
    const projections = await startProjections();
    await eventually('the projections to apply the signed checkpoint', 60_000, async () => ((await appliedPosition()) >= settled ? true : undefined));
    await projections.stop();
  }
  return (await store.readStream(CHECKPOINT_STREAM)).length;
}

export interface ChangeFeedComparison {
  liveFeed: string[];
  expectedFeed: string[];
  /** Entries one uninterrupted run writes that the live feed lacks. */
  missing: number;
  /** Entries the live feed holds more often than one uninterrupted run writes them. */
  doubled: number;
  /** Live entries whose document version is lower than the entry before. */
  outOfOrder: number;
}

/**
 * The live change feed under `livePrefix` against the feed one uninterrupted run of the same
 * projections over the same log writes (into keys of its own under `referencePrefix`).
 */
export async function changeFeedAgainstOneRun(redisUrl: string, store: EventStore, livePrefix: string, referencePrefix: string): Promise<ChangeFeedComparison> {
  const runnerRedis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  try {
    const silent = { info() {}, warn() {}, error() {} };
    await new ProjectionRunner({ store, redis: runnerRedis, keys: readModelKeys(referencePrefix), projections: allProjections, logger: silent }).catchUp();
    const liveFeed = await changeFeedEntries(runnerRedis, livePrefix);
    const expectedFeed = await changeFeedEntries(runnerRedis, referencePrefix);
    const count = (entries: string[]) => entries.reduce((counts, entry) => counts.set(entry, (counts.get(entry) ?? 0) + 1), new Map<string, number>());
    const liveCounts = count(liveFeed);
    const expectedCounts = count(expectedFeed);
    let missing = 0;
    let doubled = 0;
    for (const [entry, expected] of expectedCounts) missing += Math.max(0, expected - (liveCounts.get(entry) ?? 0));
    for (const [entry, live] of liveCounts) doubled += Math.max(0, live - (expectedCounts.get(entry) ?? 0));
    const versions = liveFeed.map((entry) => Number((JSON.parse(entry) as string[])[5]));
    const outOfOrder = versions.filter((version, i) => i > 0 && version < versions[i - 1]).length;
    return { liveFeed, expectedFeed, missing, doubled, outOfOrder };
  } finally {
    runnerRedis.disconnect();
  }
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readModelKeys } from '@honeylend/contracts';
import { reportFigure, percentile } from '../support/figures.js';
import { runLendingToEnd } from '../support/lendingProcess.js';
import { appendMemberStories, EVENTS_PER_STORY } from '../support/memberStories.js';
import { applyTrailingCheckpoints, changeFeedAgainstOneRun } from '../support/projectionEquivalence.js';
import { compareSnapshots, readModelSnapshot } from '../support/readModelComparison.js';
import { scaled } from '../support/scale.js';
import { SplitSystem } from '../support/splitSystem.js';
import { eventually, sleep } from '../support/waiting.js';

/**
 * `lending projections` is SIGKILLed at random moments while events flow into the log, and
 * restarted at once each time. Afterwards its read models must equal what `lending replay` builds
 * from the same log into fresh keys, key for key and byte for byte, and its change feed must hold
 * exactly the entries one uninterrupted run writes — each event position's entries once, in log
 * order. That is what the runner's design promises: one guarded script per batch writes the documents, the
 * checkpoints and the feed entries together, so a kill leaves either all of a batch or none of it.
 */
/** Whole member stories of about 2,000 (10,000) events: the replay's count below is exact. */
const STORIES = Math.round(scaled(2_000, 10_000) / EVENTS_PER_STORY);
const EVENTS = STORIES * EVENTS_PER_STORY;
const KILLS = scaled(5, 20);
/** Appends per second: slow enough that every kill lands while events are still flowing and being applied. */
const EVENTS_PER_SECOND = scaled(250, 250);
const CHECK = '7 projection crash';

let system: SplitSystem;
beforeAll(async () => {
  system = new SplitSystem();
  await system.start('projections');
});
afterAll(() => system?.cleanup());

describe('projection crash', () => {
  it(`${KILLS} kill -9 of the projections while ${EVENTS} events flow: read models equal a fresh replay, each change fed once`, async () => {
    const store = await system.store();
    const redis = system.redis();
    const keys = readModelKeys(system.keyPrefix);
    const checkpoint = async () => Number((await redis.get(keys.checkpoint)) ?? 0);

    // One kill at a random moment in each of KILLS equal slices of the flow.
    const killAt = Array.from({ length: KILLS }, (_, i) => Math.floor(((i + Math.random()) / KILLS) * EVENTS * 0.95));
    let appended = 0;
    const catchUpMs: number[] = [];
    const measuring: Promise<void>[] = [];
    let killedMidCatchUp = 0;

    /** From the restart until the checkpoint reaches the head the log had when the process died. */
    const measureCatchUp = (head: number, restartedAt: number, child: { isRunning(): boolean }) =>
      (async () => {
        for (;;) {
          if ((await checkpoint()) >= head) return void catchUpMs.push(Date.now() - restartedAt);
          if (!child.isRunning()) return void (killedMidCatchUp += 1);
          await sleep(20);
        }
      })();

    const killer = (async () => {
      for (const at of killAt) {
        while (appended < at) await sleep(5);
        await system.kill9('projections');
        const head = await store.headPosition();
        const restartedAt = Date.now();
        const child = await system.start('projections');
        measuring.push(measureCatchUp(head, restartedAt, child));
      }
    })();

    const started = Date.now();
    await appendMemberStories(store, {
      stories: STORIES,
      concurrency: 4,
      onAppended: async (count) => {
        appended = count;
        const ahead = count / EVENTS_PER_SECOND - (Date.now() - started) / 1000;
        if (ahead > 0) await sleep(ahead * 1000);
      },
    });
    await killer;
    const head = await store.headPosition();
    const finalFrom = Date.now();
    await eventually('the projections to apply the whole log', 120_000, async () => {
      if (!system.processes.projections!.isRunning()) throw new Error(`projections exited:\n${system.processes.projections!.output().slice(-3_000)}`);
      return (await checkpoint()) >= head ? true : undefined;
    });
    const finalCatchUpMs = Date.now() - finalFrom;
    await Promise.all(measuring);
    await system.processes.projections!.stop();
    const checkpointsSigned = await applyTrailingCheckpoints(store, head, checkpoint, async () => {
      await system.start('projections');
      return system.processes.projections!;
    });

    // The expected read models: `lending replay` over the same log into keys of its own.
    const replayPrefix = `${system.keyPrefix}replay:`;
    const replayed = await runLendingToEnd('replay', { ...system.env, REDIS_KEY_PREFIX: replayPrefix }, 120_000);
    expect(replayed).toMatch(new RegExp(`replayed ${EVENTS + checkpointsSigned} events`));
    const differences = compareSnapshots(await readModelSnapshot(redis, system.keyPrefix), await readModelSnapshot(redis, replayPrefix));

    // The expected change feed: one uninterrupted run of the same projections over the same log.
    const { liveFeed, expectedFeed, missing, doubled, outOfOrder } = await changeFeedAgainstOneRun(system.redisUrl, store, system.keyPrefix, `${system.keyPrefix}reference:`);

    const kills = KILLS;
    const sortedCatchUps = [...catchUpMs, finalCatchUpMs];
    reportFigure({ check: CHECK, name: `read-model keys differing from a fresh replay after ${kills} kills during ${EVENTS} events`, value: differences.length, target: '0' });
    reportFigure({ check: CHECK, name: 'change-feed entries missing / doubled / out of order', value: `${missing} / ${doubled} / ${outOfOrder}`, target: '0 / 0 / 0' });
    reportFigure({
      check: CHECK,
      name: `catch-up after a restart, median / max (s; ${killedMidCatchUp} restarts killed again before catching up)`,
      value: `${(percentile(sortedCatchUps, 50) / 1000).toFixed(2)} / ${(Math.max(...sortedCatchUps) / 1000).toFixed(2)}`,
    });

    expect(differences.slice(0, 5)).toEqual([]);
    expect(liveFeed.length).toBeGreaterThanOrEqual(EVENTS / 2);
    expect({ missing, doubled, outOfOrder }).toEqual({ missing: 0, doubled: 0, outOfOrder: 0 });
    expect(liveFeed).toEqual(expectedFeed);
  });
});

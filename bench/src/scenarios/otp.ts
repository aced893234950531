import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { createJobKeys } from '@honeylend/contracts';
import { pool } from '../seedMembers.js';
import { runOpenLoop, type OpenLoopResult } from '../openLoop.js';
import { sleep, summarize, type LatencySummary } from '../stats.js';
import { sumCounter } from '../machineLoad.js';
import type { RunningSystem } from '../system.js';

export interface OtpResult {
  requests: number;
  delivered: number;
  /** POST /api/withdrawals/otp sent → the text for that phone is in the outbox. */
  deliveredMs: LatencySummary;
  ackMs: LatencySummary;
  nonAccepted: number;
  firstRefusal: string | null;
}

/**
 * Watches the SMS outbox (a Redis list the SMS worker pushes to, newest first), polled every
 * millisecond while someone waits: `expect(phone)` resolves with the performance.now() at which
 * that phone's text was seen, or null after `timeoutMs`.
 */
async function watchOutbox(redisUrl: string, outbox: string) {
  const redis = new Redis(redisUrl);
  const waiting = new Map<string, { since: number; resolve: (at: number | null) => void }>();
  let polling = true;
  // Newest first: only the entries above the head seen last time are new, so only those are parsed.
  let lastHead: string | undefined = (await redis.lrange(outbox, 0, 0))[0];
  const poller = (async () => {
    while (polling) {
      if (waiting.size > 0) {
        const entries = await redis.lrange(outbox, 0, 49);
        const now = performance.now();
        const seen = lastHead === undefined ? -1 : entries.indexOf(lastHead);
        const fresh = seen === -1 ? entries : entries.slice(0, seen);
        if (entries[0] !== undefined) lastHead = entries[0];
        for (const raw of fresh) {
          const entry = JSON.parse(raw) as { to: string; createdAt: string };
          const waiter = waiting.get(entry.to);
          if (waiter && Date.parse(entry.createdAt) >= waiter.since - 5) {
            waiting.delete(entry.to);
            waiter.resolve(now);
          }
        }
      }
      await sleep(1);
    }
  })();
  return {
    expect(phone: string, timeoutMs = 10_000): { arrived: Promise<number | null>; cancel(): void } {
      let settle!: (at: number | null) => void;
      const arrived = new Promise<number | null>((resolve) => (settle = resolve));
      waiting.set(phone, { since: Date.now(), resolve: settle });
      const timer = setTimeout(() => {
        waiting.delete(phone);
        settle(null);
      }, timeoutMs);
      void arrived.then(() => clearTimeout(timer));
      return {
        arrived,
        cancel() {
          waiting.delete(phone);
          settle(null);
        },
      };
    },
    async close() {
      polling = false;
      await poller;
      redis.disconnect();
    },
  };
}

/**
 * Scenario 6 (closed loop, a ceiling): `count` OTP requests (a different member each: the issue
 * throttle allows 3 per member per 15 minutes), `concurrency` at a time.
 */
export async function otpScenario(system: RunningSystem, redisUrl: string, { count, concurrency }: { count: number; concurrency: number }): Promise<OtpResult> {
  const outbox = await watchOutbox(redisUrl, createJobKeys(system.keyPrefix).smsOutbox);
  const delivered: number[] = [];
  const acks: number[] = [];
  let nonAccepted = 0;
  let firstRefusal: string | null = null;
  try {
    const members = system.members.slice(0, Math.min(count, system.members.length));
    await pool(members, concurrency, async (member, i) => {
      const expected = outbox.expect(member.phone);
      const t0 = performance.now();
      const res = await system.client.call('POST', '/api/withdrawals/otp', { token: system.tokens[i], body: { amount: 1_000 } });
      acks.push(performance.now() - t0);
      if (res.status !== 202) {
        expected.cancel();
        nonAccepted++;
        firstRefusal ??= `${res.status} ${JSON.stringify(res.body)}`;
        return;
      }
      const at = await expected.arrived;
      if (at !== null) delivered.push(at - t0);
    });
  } finally {
    await outbox.close();
  }
  return { requests: Math.min(count, system.members.length), delivered: delivered.length, deliveredMs: summarize(delivered), ackMs: summarize(acks), nonAccepted, firstRefusal };
}

export interface OtpOpenResult extends OpenLoopResult {
  /** Accepted (202) but no text reached the outbox within 10 s. */
  undelivered: number;
  /** Where each delivered request's time went: sending to the 202, and the 202 to the text in the outbox (queue, worker, SMS adapter). */
  ackMs: LatencySummary;
  afterAckMs: LatencySummary;
  /** Each role's longest event-loop stall during the run, and its p99 (prom-client's monitorEventLoopDelay, reset at every scrape), by process; null where it has no metrics. */
  eventLoopDelayMs: Record<string, { max: number; p99: number } | null>;
}

/** Every role's /metrics text (or null), by process name. Scraping also restarts prom-client's event-loop delay histogram. */
async function scrapeRoles(system: RunningSystem): Promise<Record<string, string | null>> {
  const texts: Record<string, string | null> = {};
  for (const child of system.children) {
    const port = system.metricsPortOf(child);
    const res = port === undefined ? null : await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(5_000) }).catch(() => null);
    texts[child.name] = res?.ok ? await res.text() : null;
  }
  return texts;
}

function eventLoopDelays(texts: Record<string, string | null>): Record<string, { max: number; p99: number } | null> {
  const toMs = (seconds: number) => Math.round(seconds * 10_000) / 10;
  return Object.fromEntries(
    Object.entries(texts).map(([name, text]) => [name, text === null ? null : { max: toMs(sumCounter(text, 'nodejs_eventloop_lag_max_seconds')), p99: toMs(sumCounter(text, 'nodejs_eventloop_lag_p99_seconds')) }]),
  );
}

/**
 * Scenario 6, open loop (issue 19): OTP requests at a fixed `rate` for `durationSeconds`, each a
 * member of its own (taken from the end of the list, so the closed run's members are not asked a
 * second time), latency from the scheduled send time to the text in the outbox.
 */
export async function otpOpenLoopScenario(system: RunningSystem, redisUrl: string, { rate, durationSeconds }: { rate: number; durationSeconds: number }): Promise<OtpOpenResult> {
  const outbox = await watchOutbox(redisUrl, createJobKeys(system.keyPrefix).smsOutbox);
  const { members, tokens } = system;
  if (rate * durationSeconds > members.length) throw new Error(`${rate * durationSeconds} OTP requests need as many members; ${members.length} were seeded`);
  let undelivered = 0;
  const acks: number[] = [];
  const afterAcks: number[] = [];
  try {
    await scrapeRoles(system);
    const result = await runOpenLoop({
      ratePerSecond: rate,
      durationSeconds,
      send: async (i) => {
        const k = members.length - 1 - i;
        const expected = outbox.expect(members[k].phone);
        const sentAt = performance.now();
        const res = await system.client.call('POST', '/api/withdrawals/otp', { token: tokens[k], body: { amount: 1_000 } });
        const ackAt = performance.now();
        if (res.status !== 202) {
          expected.cancel();
          return { ok: false, status: res.status };
        }
        const at = await expected.arrived;
        if (at === null) undelivered++;
        else {
          acks.push(ackAt - sentAt);
          afterAcks.push(at - ackAt);
        }
        return at === null ? { ok: false, status: res.status } : { ok: true, status: res.status, completedAt: at };
      },
    });
    const eventLoopDelayMs = eventLoopDelays(await scrapeRoles(system));
    return { ...result, undelivered, ackMs: summarize(acks), afterAckMs: summarize(afterAcks), eventLoopDelayMs };
  } finally {
    await outbox.close();
  }
}

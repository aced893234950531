import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { createJobKeys } from '@honeylend/contracts';
import { pool } from '../seedMembers.js';
import { sleep, summarize, type LatencySummary } from '../stats.js';
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
 * Scenario 6: `count` OTP requests (a different member each: the issue throttle allows 3 per member
 * per 15 minutes), `concurrency` at a time; the outbox (a Redis list the SMS worker pushes to) is
 * polled every millisecond for each phone's text.
 */
export async function otpScenario(system: RunningSystem, redisUrl: string, { count, concurrency }: { count: number; concurrency: number }): Promise<OtpResult> {
  const outbox = createJobKeys(system.keyPrefix).smsOutbox;
  const redis = new Redis(redisUrl);
  const waiting = new Map<string, { since: number; resolve: (at: number) => void }>();
  let polling = true;
  // Newest first: only the entries above the head seen last time are new, so only those are parsed.
  let lastHead: string | undefined = (await redis.lrange(outbox, 0, 0))[0];
  const poller = (async () => {
    while (polling) {
      if (waiting.size > 0) {
        const entries = await redis.lrange(outbox, 0, 19);
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
  const delivered: number[] = [];
  const acks: number[] = [];
  let nonAccepted = 0;
  let firstRefusal: string | null = null;
  try {
    const members = system.members.slice(0, Math.min(count, system.members.length));
    await pool(members, concurrency, async (member, i) => {
      const arrived = new Promise<number>((resolve) => waiting.set(member.phone, { since: Date.now(), resolve }));
      const t0 = performance.now();
      const res = await system.client.call('POST', '/api/withdrawals/otp', { token: system.tokens[i]!, body: { amount: 1_000 } });
      acks.push(performance.now() - t0);
      if (res.status !== 202) {
        waiting.delete(member.phone);
        nonAccepted++;
        firstRefusal ??= `${res.status} ${JSON.stringify(res.body)}`;
        return;
      }
      const at = await Promise.race([arrived, sleep(10_000).then(() => null)]);
      if (at === null) waiting.delete(member.phone);
      else delivered.push(at - t0);
    });
  } finally {
    polling = false;
    await poller;
    redis.disconnect();
  }
  return { requests: Math.min(count, system.members.length), delivered: delivered.length, deliveredMs: summarize(delivered), ackMs: summarize(acks), nonAccepted, firstRefusal };
}

import { performance } from 'node:perf_hooks';
import { summarize, type LatencySummary } from './stats.js';

/**
 * Open-loop load: requests leave at a fixed arrival rate whatever the system does, and each one's
 * latency runs from the time it was *scheduled* to leave, not from when it actually left. A closed
 * loop (N in flight, the next sent when one returns) slows down with the system and so never sees
 * the queue a stall builds — coordinated omission; here a stall shows up in every request scheduled
 * during it.
 */

/** Milliseconds after the start at which request i is due: i / rate, for `durationSeconds`. */
export function arrivalSchedule(ratePerSecond: number, durationSeconds: number): number[] {
  if (!(ratePerSecond > 0) || !(durationSeconds > 0)) throw new Error('an open loop needs a positive rate and duration');
  const count = Math.floor(ratePerSecond * durationSeconds);
  const gap = 1000 / ratePerSecond;
  return Array.from({ length: count }, (_, i) => i * gap);
}

export interface Outcome {
  /** The request was answered as the scenario expects (2xx, and whatever else it checks). */
  ok: boolean;
  status: number;
  /** When the request's own outcome is later than its answer (an SMS in the outbox): ms on the same clock. */
  completedAt?: number;
}

export interface OpenLoopOptions {
  ratePerSecond: number;
  durationSeconds: number;
  /** Sends request i; resolves with its outcome, rejects on a transport error or a timeout. */
  send: (i: number) => Promise<Outcome>;
  /** Requests still unanswered when this many are in flight are not sent, and count as dropped (default 10,000). */
  maxInFlight?: number;
  /** Stops scheduling (the rest count as not sent). */
  signal?: AbortSignal;
  now?: () => number;
}

export interface OpenLoopResult {
  offeredPerSecond: number;
  durationSeconds: number;
  scheduled: number;
  sent: number;
  /** Answered as expected. */
  ok: number;
  /** Answered, but not as expected (a non-2xx status, a missing outcome). */
  failed: number;
  /** Transport errors and timeouts. */
  errors: number;
  /** Scheduled but never sent (in-flight limit reached, or stopped). */
  notSent: number;
  /** Everything scheduled that did not end ok: nothing is dropped when this is 0. */
  dropped: number;
  /** Answers per second over the time from the first scheduled send to the last answer. */
  completedPerSecond: number;
  /** From each request's scheduled send time to its outcome, ok ones only. */
  latencyMs: LatencySummary;
  /** How late the generator itself sent requests (its own event loop): a large figure means the bench, not the system, was behind. */
  sendLagMs: LatencySummary;
  statuses: Record<string, number>;
  firstError: string | null;
}

/**
 * Runs the schedule: a timer wakes at the next due time and sends every request whose time has
 * come (all of them, however many are still in flight), so the offered rate holds while the system
 * falls behind.
 */
export async function runOpenLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const now = options.now ?? (() => performance.now());
  const maxInFlight = options.maxInFlight ?? 10_000;
  const schedule = arrivalSchedule(options.ratePerSecond, options.durationSeconds);
  const latencies: number[] = [];
  const lags: number[] = [];
  const statuses: Record<string, number> = {};
  let ok = 0;
  let failed = 0;
  let errors = 0;
  let notSent = 0;
  let inFlight = 0;
  let firstError: string | null = null;
  let lastDone = 0;
  const pending: Promise<void>[] = [];
  const start = now();
  let next = 0;
  while (next < schedule.length) {
    if (options.signal?.aborted) {
      notSent += schedule.length - next;
      break;
    }
    const due = start + schedule[next];
    const wait = due - now();
    if (wait > 1) {
      await new Promise((resolve) => setTimeout(resolve, Math.floor(wait)));
      continue;
    }
    const sentAt = now();
    while (next < schedule.length && start + schedule[next] <= sentAt + 1) {
      const i = next++;
      const scheduledAt = start + schedule[i];
      if (inFlight >= maxInFlight) {
        notSent++;
        continue;
      }
      lags.push(Math.max(0, sentAt - scheduledAt));
      inFlight++;
      pending.push(
        options.send(i).then(
          (outcome) => {
            const doneAt = outcome.completedAt ?? now();
            statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
            if (outcome.ok) {
              ok++;
              latencies.push(Math.max(0, doneAt - scheduledAt));
            } else failed++;
            lastDone = Math.max(lastDone, doneAt);
            inFlight--;
          },
          (error: unknown) => {
            errors++;
            firstError ??= error instanceof Error ? error.message : String(error);
            lastDone = Math.max(lastDone, now());
            inFlight--;
          },
        ),
      );
    }
    // Let the answers that arrived be handled before the next batch is due.
    await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(pending);
  const sent = schedule.length - notSent;
  const span = Math.max(lastDone - start, 1) / 1000;
  return {
    offeredPerSecond: options.ratePerSecond,
    durationSeconds: options.durationSeconds,
    scheduled: schedule.length,
    sent,
    ok,
    failed,
    errors,
    notSent,
    dropped: schedule.length - ok,
    completedPerSecond: (ok + failed) / span,
    latencyMs: summarize(latencies),
    sendLagMs: summarize(lags),
    statuses,
    firstError,
  };
}

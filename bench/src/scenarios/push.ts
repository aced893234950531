import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { closeAll, connectMany } from '../sockets.js';
import { sleep, summarize, type LatencySummary } from '../stats.js';
import type { RunningSystem } from '../system.js';

export interface PushResult {
  sockets: number;
  targetRate: number;
  achievedRate: number;
  commands: number;
  /** Request sent → the owner's socket received member.updated with the change. */
  pushMs: LatencySummary;
  ackMs: LatencySummary;
  missing: number;
  nonOk: number;
  skippedForBackpressure: number;
  /** p99 event-loop delay of the bench process itself while measuring (it holds the sockets and sends the commands). */
  benchLoopDelayP99Ms: number;
}

const MAX_IN_FLIGHT = 256;

/**
 * Scenario 4: a socket per seeded member, and profile updates sent open-loop at `rate` per second
 * for `durationSeconds`, round-robin over the members; each command's latency is from sending its
 * request to its owner's socket receiving the member.updated that carries the change.
 */
export async function pushScenario(system: RunningSystem, { rate, durationSeconds, tag, socketBatch }: { rate: number; durationSeconds: number; tag: string; socketBatch: number }): Promise<PushResult> {
  const pending = new Map<string, number>();
  const pushLatencies: number[] = [];
  const ackLatencies: number[] = [];
  const { sockets, failed, firstError } = await connectMany(
    system.baseUrl,
    system.members.length,
    socketBatch,
    (i) => system.tokens[i],
    (socket) => {
      socket.on('member.updated', (message: { doc?: { address?: string } }) => {
        const address = message?.doc?.address;
        const sentAt = address === undefined || address === null ? undefined : pending.get(address);
        if (sentAt === undefined) return;
        pushLatencies.push(performance.now() - sentAt);
        pending.delete(address!);
      });
    },
  );
  if (failed > 0) throw new Error(`${failed} of ${system.members.length} sockets could not connect: ${firstError}`);
  const total = Math.max(1, Math.round(rate * durationSeconds));
  let sent = 0;
  let inFlight = 0;
  let nonOk = 0;
  let skipped = 0;
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
      while (sent < due) {
        const k = sent++;
        if (inFlight >= MAX_IN_FLIGHT) {
          skipped++;
          continue;
        }
        const i = k % system.members.length;
        const address = `Unit ${tag}-${k}, 123 Rizal Avenue, Manila`;
        const t0 = performance.now();
        pending.set(address, t0);
        inFlight++;
        system.client
          .call('PUT', '/api/user/profile', { token: system.tokens[i], body: { address } })
          .then((res) => {
            ackLatencies.push(performance.now() - t0);
            if (res.status !== 200) nonOk++;
          })
          .catch(() => nonOk++)
          .finally(() => inFlight--);
      }
      if (sent >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 2);
  });
  const sendingSeconds = (performance.now() - started) / 1000;
  const deadline = Date.now() + 10_000;
  while ((pending.size > 0 || inFlight > 0) && Date.now() < deadline) await sleep(20);
  loopDelay.disable();
  closeAll(sockets);
  return {
    sockets: sockets.length,
    targetRate: rate,
    achievedRate: (sent - skipped) / sendingSeconds,
    commands: sent - skipped,
    pushMs: summarize(pushLatencies),
    ackMs: summarize(ackLatencies),
    missing: pending.size,
    nonOk,
    skippedForBackpressure: skipped,
    benchLoopDelayP99Ms: loopDelay.percentile(99) / 1e6,
  };
}

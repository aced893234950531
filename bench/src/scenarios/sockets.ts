import type { Socket } from 'socket.io-client';
import { settledRss } from '../processes.js';
import { pool } from '../seedMembers.js';
import { closeAll, connectMany } from '../sockets.js';
import { sleep, summarize, type LatencySummary } from '../stats.js';
import type { RunningSystem } from '../system.js';

export interface SocketsResult {
  target: number;
  connected: number;
  failed: number;
  firstError: string | null;
  connectSeconds: number;
  apiRssBeforeMb: number | null;
  apiRssAfterMb: number | null;
  rssPerSocketKb: number | null;
  /** After all were connected: one change per member, and how many sockets received their member's change. */
  delivered: number;
  deliverySeconds: number;
  /** Command sent → each socket's receipt, over all sockets. */
  deliveryMs: LatencySummary;
}

/**
 * Scenario 5: `count` authenticated sockets (the seeded members' tokens in turn, so each member
 * has count/members sockets), connected `batch` at a time to the one API process; its RSS before
 * and after; then one profile change per member, and every socket must receive its member's change.
 */
export async function socketsScenario(system: RunningSystem, { count, batch, tag, deliveryTimeoutMs }: { count: number; batch: number; tag: string; deliveryTimeoutMs: number }): Promise<SocketsResult> {
  const before = await settledRss(system.api);
  const members = system.members.length;
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let delivered = 0;
  const markerOf = (memberIndex: number) => `Unit ${tag}-all-${memberIndex}, 123 Rizal Avenue, Manila`;
  const watch = (socket: Socket, i: number) => {
    const marker = markerOf(i % members);
    const onUpdate = (message: { doc?: { address?: string } }) => {
      if (message?.doc?.address !== marker) return;
      const t0 = sentAt.get(marker);
      if (t0 !== undefined) latencies.push(performance.now() - t0);
      delivered++;
      socket.off('member.updated', onUpdate);
    };
    socket.on('member.updated', onUpdate);
  };
  const { sockets, failed, firstError, seconds } = await connectMany(system.baseUrl, count, batch, (i) => system.tokens[i % members], watch);
  const after = await settledRss(system.api, { maxWaitMs: 10_000 });

  const started = Date.now();
  await pool(
    system.members.map((_, i) => i),
    16,
    async (i) => {
      sentAt.set(markerOf(i), performance.now());
      const res = await system.client.call('PUT', '/api/user/profile', { token: system.tokens[i], body: { address: markerOf(i) } });
      if (res.status !== 200) throw new Error(`profile update for the delivery check answered ${res.status}: ${JSON.stringify(res.body)}`);
    },
  );
  const deadline = Date.now() + deliveryTimeoutMs;
  while (delivered < sockets.length && Date.now() < deadline) await sleep(50);
  const deliverySeconds = (Date.now() - started) / 1000;
  closeAll(sockets);
  await sleep(1_000);
  const mb = (bytes: number | null) => (bytes === null ? null : bytes / 1024 / 1024);
  return {
    target: count,
    connected: sockets.length,
    failed,
    firstError,
    connectSeconds: seconds,
    apiRssBeforeMb: mb(before),
    apiRssAfterMb: mb(after),
    rssPerSocketKb: before !== null && after !== null && sockets.length > 0 ? (after - before) / 1024 / sockets.length : null,
    delivered,
    deliverySeconds,
    deliveryMs: summarize(latencies),
  };
}

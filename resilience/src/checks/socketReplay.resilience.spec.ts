import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rooms } from '@honeylend/contracts';
import { startTestSystem, type TestSystem } from '../../../cli/src/testing/testSystem.js';
import { registerBorrower } from '../../../cli/src/testing/borrowers.js';
import { superadminToken } from '../../../cli/src/testing/admins.js';
import { openSocket, socketConnected, until } from '../../../cli/src/testing/sockets.js';
import { REPLAY_WINDOW } from '../../../command-api/src/platform/realtime/realtimeGateway.js';
import { reportFigure } from '../support/figures.js';
import { scaled } from '../support/scale.js';

/**
 * Issue 14, item 5: sockets resuming from `0-0` (the whole feed) or from further back than the
 * replay window must not make the API read the change feed into memory. The feed is filled with
 * entries for the admins' room (what a staff socket would be sent), then 50 staff sockets connect
 * at once resuming from 0-0, then 50 more from just before the flood; each must be told to refetch
 * and sent none of the flood. The figure is the growth of the heap of the process the API runs in
 * (sampled every few milliseconds while the sockets connect, against the heap just before).
 */
const SOCKETS = 50;
const FEED_ENTRIES = scaled(20_000, 50_000);
/** About 1 KB each, the size of a member document with its signed document URLs. */
const DOC = JSON.stringify({ customLoanStatuses: [], padding: 'x'.repeat(1_000) });
const MB = 1024 * 1024;

let system: TestSystem;
let mainToken: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  system = await startTestSystem();
  mainToken = await superadminToken(system);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await system?.stop();
});

/** Connects the sockets at once, resuming from `since`; resolves with the peak heap growth and what they were sent. */
async function resumeMany(since: string): Promise<{ growthMb: number; resyncs: number; replayed: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const baseline = process.memoryUsage().heapUsed;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  let resyncs = 0;
  let replayed = 0;
  try {
    const opened = Array.from({ length: SOCKETS }, () => {
      const socket = openSocket(system.baseUrl, { token: mainToken, since });
      sockets.push(socket);
      socket.on('settings.updated', () => (replayed += 1));
      socket.once('resync.required', () => (resyncs += 1));
      return socket;
    });
    await Promise.all(opened.map((socket) => socketConnected(socket)));
    await until(() => resyncs === SOCKETS, 60_000, `${SOCKETS} resync.required`);
    // Anything the replay would have sent has arrived by now.
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const socket of opened) socket.disconnect();
  } finally {
    clearInterval(sampler);
  }
  return { growthMb: Math.round(((peak - baseline) / MB) * 10) / 10, resyncs, replayed };
}

describe('resuming the change feed from 0-0 or from too far back', () => {
  it(`costs the API no more memory than the sockets themselves (figure: heap growth with ${SOCKETS} sockets at 0-0)`, async () => {
    const feed = `${system.keyPrefix}rm:changes`;
    const beforeFlood = (await system.redis.xrevrange(feed, '+', '-', 'COUNT', 1))[0]?.[0] ?? '0-1';
    for (let written = 0; written < FEED_ENTRIES; written += 1_000) {
      const batch = system.redis.pipeline();
      for (let i = 0; i < 1_000; i++) batch.xadd(feed, '*', 'event', 'settings.updated', 'rooms', JSON.stringify([rooms.admins]), 'version', String(written + i), 'doc', DOC);
      await batch.exec();
    }
    // The gateway has tailed past the flood once a change made after it reaches a socket.
    const borrower = await registerBorrower(system);
    const witness = await socketConnected(openSocket(system.baseUrl, { token: borrower.token }));
    sockets.push(witness);
    const heard: string[] = [];
    witness.on('member.updated', (message: { doc: { address: string } }) => heard.push(message.doc.address));
    expect((await system.request('PUT', '/api/user/profile', { token: borrower.token, body: { address: '9 Katipunan Avenue, Quezon City' } })).status).toBe(200);
    await until(() => heard.length > 0, 60_000, 'the gateway to tail past the flood');

    const fromStart = await resumeMany('0-0');
    reportFigure({ check: '16 socket replay', name: `API heap growth, ${SOCKETS} staff sockets resuming at 0-0 over a ${FEED_ENTRIES}-entry feed (MB)`, value: fromStart.growthMb, target: '≤ 32' });
    const tooOld = await resumeMany(beforeFlood);
    reportFigure({ check: '16 socket replay', name: `API heap growth, ${SOCKETS} staff sockets resuming ${FEED_ENTRIES} entries back (window ${REPLAY_WINDOW}) (MB)`, value: tooOld.growthMb, target: '≤ 32' });

    expect(fromStart).toMatchObject({ resyncs: SOCKETS, replayed: 0 });
    expect(tooOld).toMatchObject({ resyncs: SOCKETS, replayed: 0 });
    // Reading the flood into memory once per socket would be SOCKETS × FEED_ENTRIES × ~1 KB (about a gigabyte).
    expect(fromStart.growthMb).toBeLessThan(64);
    expect(tooOld.growthMb).toBeLessThan(64);
  });
});

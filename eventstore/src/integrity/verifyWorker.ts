import { parentPort, workerData } from 'node:worker_threads';
import type { KeyObject } from 'node:crypto';
import { openEventStore } from '../openEventStore.js';
import type { Checkpoint } from './checkpoint.js';
import { verifyLog, type VerifyProgress, type VerifyReport } from './verifyLog.js';

/** What the main thread hands a worker: its part of the range, on a connection of its own. */
export interface SegmentTask {
  url: string;
  from: number;
  to: number;
  trustedKeys: KeyObject[];
  extraCheckpoints: Checkpoint[];
}

export type SegmentMessage = { progress: VerifyProgress } | { report: VerifyReport } | { error: string };

/** One segment of a parallel verification (parallelVerify.ts): verifyLog over [from, to] on its own store. */
async function verifySegment(task: SegmentTask): Promise<void> {
  const post = (message: SegmentMessage) => parentPort!.postMessage(message);
  const store = await openEventStore(task.url);
  try {
    const report = await verifyLog(store, {
      from: task.from,
      to: task.to,
      trustedKeys: task.trustedKeys,
      extraCheckpoints: task.extraCheckpoints,
      onProgress: (progress) => post({ progress }),
    });
    post({ report });
  } finally {
    await store.close();
  }
}

verifySegment(workerData as SegmentTask).catch((error: unknown) => parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies SegmentMessage));

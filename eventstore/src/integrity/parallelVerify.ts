import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { EventStore } from '../port.js';
import type { SegmentMessage, SegmentTask } from './verifyWorker.js';
import { verifyLog, type VerifyOptions, type VerifyReport } from './verifyLog.js';

/** With workers 'auto', a range this long is split over the cores; a shorter one would spend more starting workers than it saves. */
const AUTO_PARALLEL_FROM = 100_000;

/**
 * verifyLog over `workers` parts of the range at once, each in a worker thread on a PostgreSQL
 * connection of its own (the work is hashing: one core checks about a third of what two do with
 * the database beside them). Each part checks its own links, starting from the stored hash just
 * before it, and the signed checkpoints inside it, so the parts are independent: the first bad
 * position is the smallest any part found. A store that only one thread may open (PGlite), a chain
 * that is computed (EventStoreDB) or a short range is verified in this thread.
 */
export async function verifyLogInParallel(store: EventStore, url: string, options: VerifyOptions & { workers: number | 'auto' }): Promise<VerifyReport> {
  const from = Math.max(1, options.from ?? 1);
  const to = options.to ?? (await store.headPosition());
  const parallel = /^postgres(ql)?:\/\//.test(url) && store.integrity.hashChain === 'stored' && store.integrity.densePositions;
  const asked = options.workers === 'auto' ? (to - from + 1 >= AUTO_PARALLEL_FROM ? availableParallelism() : 1) : options.workers;
  const workers = parallel ? Math.min(asked, to - from + 1) : 1;
  if (workers <= 1) return verifyLog(store, { ...options, from, to });

  const started = performance.now();
  const size = Math.ceil((to - from + 1) / workers);
  const segments = Array.from({ length: workers }, (_, i) => ({ from: from + i * size, to: Math.min(to, from + (i + 1) * size - 1) }));
  const checked = segments.map(() => 0);
  const reports = await Promise.all(
    segments.map(
      (segment, i) =>
        new Promise<VerifyReport>((resolve, reject) => {
          const task: SegmentTask = { url, ...segment, trustedKeys: [...options.trustedKeys], extraCheckpoints: [...(options.extraCheckpoints ?? [])] };
          const worker = new Worker(new URL('./verifyWorker.js', import.meta.url), { workerData: task });
          worker.on('message', (message: SegmentMessage) => {
            if ('progress' in message) {
              checked[i] = message.progress.checkedEvents;
              const total = checked.reduce((sum, count) => sum + count, 0);
              options.onProgress?.({ verifiedTo: from - 1 + total, checkedEvents: total, to });
            } else if ('report' in message) resolve(message.report);
            else reject(new Error(message.error));
          });
          worker.on('error', reject);
          worker.on('exit', (code) => code !== 0 && reject(new Error(`a verification worker exited with code ${code}`)));
        }),
    ),
  );
  const failed = reports.filter((report) => report.firstBad !== null).sort((a, b) => a.firstBad!.position - b.firstBad!.position)[0];
  return {
    status: failed ? 'failed' : 'passed',
    from,
    to,
    verifiedTo: failed ? failed.firstBad!.position - 1 : to,
    checkedEvents: reports.reduce((sum, report) => sum + report.checkedEvents, 0),
    checkedCheckpoints: reports.reduce((sum, report) => sum + report.checkedCheckpoints, 0),
    firstBad: failed?.firstBad ?? null,
    seconds: (performance.now() - started) / 1000,
  };
}

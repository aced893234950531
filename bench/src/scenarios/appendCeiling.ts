import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { openEventStore } from '@honeylend/eventstore';
import { summarize, type LatencySummary } from '../stats.js';

export interface AppendCeilingResult {
  concurrency: number;
  appendsPerSecond: number;
  appendMs: LatencySummary;
}

/**
 * A diagnostic beside scenario 3: single-event appends to distinct streams straight through the
 * PostgreSQL adapter, `concurrency` at a time, with the server's durable commit. No API, no
 * projections: the most commands per second the store lets through, whatever the layers above do.
 */
export async function appendCeilingScenario(eventStoreUrl: string, { concurrency, seconds }: { concurrency: number; seconds: number }): Promise<AppendCeilingResult> {
  const store = await openEventStore(eventStoreUrl);
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < deadline) {
          const memberId = randomUUID();
          const t0 = performance.now();
          await store.append(
            `ceiling-${memberId}`,
            [{ id: randomUUID(), type: 'PhoneReserved', data: { phone: '+639170000000', memberId, reservedAt: new Date().toISOString() }, metadata: { actorId: 'bench' } }],
            { expectedRevision: 'no_stream' },
          );
          latencies.push(performance.now() - t0);
        }
      }),
    );
  } finally {
    await store.close();
  }
  return { concurrency, appendsPerSecond: latencies.length / ((performance.now() - started) / 1000), appendMs: summarize(latencies) };
}

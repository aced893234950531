import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { PostgresEventStore } from '@honeylend/eventstore';
import { summarize, type LatencySummary } from '../stats.js';

export interface AppendCeilingResult {
  concurrency: number;
  /** Whether the log kept its hash chain (design §10): without it only to measure what it costs. */
  hashChain: boolean;
  appendsPerSecond: number;
  appendMs: LatencySummary;
}

/**
 * A diagnostic beside scenario 3: single-event appends to distinct streams straight through the
 * PostgreSQL adapter, `concurrency` at a time, with the server's durable commit. No API, no
 * projections: the most commands per second the store lets through, whatever the layers above do.
 * `hashChain: false` opens the log without its hash chain, to compare in the same run what the
 * chain costs an append (each run in a schema of its own).
 */
export async function appendCeilingScenario(eventStoreUrl: string, { concurrency, seconds, hashChain = true }: { concurrency: number; seconds: number; hashChain?: boolean }): Promise<AppendCeilingResult> {
  const store = await PostgresEventStore.open(eventStoreUrl, { hashChain });
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < deadline) {
          const memberId = randomUUID();
          const t0 = performance.now();
          await store.append(`ceiling-${memberId}`, [{ id: randomUUID(), type: 'PhoneReserved', data: { phone: '+639170000000', memberId, reservedAt: new Date().toISOString() }, metadata: { actorId: 'bench' } }], {
            expectedRevision: 'no_stream',
          });
          latencies.push(performance.now() - t0);
        }
      }),
    );
  } finally {
    await store.close();
  }
  return { concurrency, hashChain, appendsPerSecond: latencies.length / ((performance.now() - started) / 1000), appendMs: summarize(latencies) };
}

import { describe, expect, it } from 'vitest';
import { metrics, registry } from './metrics.js';

async function valuesOf(name: string): Promise<Record<string, number>> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return {};
  const { values } = await metric.get();
  return Object.fromEntries(values.map((value) => [JSON.stringify(value.labels), value.value]));
}

describe('the process metrics registry', () => {
  it('hands back the metric first made when a name is asked for again, so two callers share one series', () => {
    const first = metrics.counter({ name: 'test_shared_total', help: 'test', labelNames: ['kind'] });
    const second = metrics.counter({ name: 'test_shared_total', help: 'test', labelNames: ['kind'] });
    expect(second).toBe(first);
    expect(() => metrics.gauge({ name: 'test_shared_total', help: 'test' })).toThrow(/another kind/);
  });

  it('adds up a gauge’s sources at each scrape, drops a removed one, and leaves out one that fails', async () => {
    const name = 'test_observed_things';
    const removeA = metrics.observe({ name, help: 'test', labelNames: ['role'] }, (add) => add({ role: 'admin' }, 2));
    metrics.observe({ name, help: 'test', labelNames: ['role'] }, (add) => {
      add({ role: 'admin' }, 1);
      add({ role: 'borrower' }, 5);
    });
    metrics.observe({ name, help: 'test', labelNames: ['role'] }, async () => {
      throw new Error('Redis is away');
    });
    expect(await valuesOf(name)).toEqual({ '{"role":"admin"}': 3, '{"role":"borrower"}': 5 });
    removeA();
    expect(await valuesOf(name)).toEqual({ '{"role":"admin"}': 1, '{"role":"borrower"}': 5 });
  });
});

import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type CounterConfiguration, type GaugeConfiguration, type HistogramConfiguration, type Metric } from 'prom-client';

/**
 * The process's metrics, in one prom-client registry served at `GET /metrics` on METRICS_PORT.
 * A role is a process (`lending api`, `lending projections`, `lending workers`), so this registry
 * is the role's; `lending start` runs every role in one process and serves all of them together.
 *
 * Any module adds its own metrics here, at module level, with `metrics.counter(…)`,
 * `metrics.histogram(…)` or `metrics.gauge(…)`: asking twice for one name returns the metric first
 * made (so several API nodes in one test process, or a module loaded twice, share it instead of
 * failing on a duplicate name). Names start with `honeylend_`; labels stay few and bounded (a
 * route pattern, a status, a queue), never an id.
 *
 * ```ts
 * import { metrics } from '@honeylend/observability';
 * const dayCloseSeconds = metrics.histogram({ name: 'honeylend_day_close_duration_seconds', help: 'How long one business day's close took', buckets: [1, 5, 15, 60, 300] });
 * const stop = dayCloseSeconds.startTimer(); … stop();
 * ```
 *
 * A value that is read when scraped (a queue's depth, a projection's lag) is a gauge with sources:
 * `metrics.observe(config, source)` adds a function that is asked at every scrape and returns a
 * function that removes it (call it when the thing it reads is closed).
 */
export const registry = new Registry();

/** Sets a gauge's values at a scrape; several sources of one gauge add up (two API nodes' sockets). */
export type GaugeSource<L extends string> = (add: (labels: Partial<Record<L, string | number>>, value: number) => void) => void | Promise<void>;

const sources = new Map<string, Set<GaugeSource<string>>>();

function existing<M extends Metric>(name: string, kind: new (...args: never[]) => M): M | undefined {
  const found = registry.getSingleMetric(name);
  if (found === undefined) return undefined;
  if (!(found instanceof kind)) throw new TypeError(`metric ${name} is already registered as another kind`);
  return found;
}

export const metrics = {
  registry,

  counter<L extends string>(config: Omit<CounterConfiguration<L>, 'registers'>): Counter<L> {
    return existing(config.name, Counter<L>) ?? new Counter<L>({ ...config, registers: [registry] });
  },

  histogram<L extends string>(config: Omit<HistogramConfiguration<L>, 'registers'>): Histogram<L> {
    return existing(config.name, Histogram<L>) ?? new Histogram<L>({ ...config, registers: [registry] });
  },

  gauge<L extends string>(config: Omit<GaugeConfiguration<L>, 'registers'>): Gauge<L> {
    return existing(config.name, Gauge<L>) ?? new Gauge<L>({ ...config, registers: [registry] });
  },

  /** A gauge read from its sources at every scrape; returns the function that removes this source. */
  observe<L extends string>(config: Omit<GaugeConfiguration<L>, 'registers' | 'collect'>, source: GaugeSource<L>): () => void {
    let own = sources.get(config.name);
    if (!own) {
      const set = (own = new Set<GaugeSource<string>>());
      sources.set(config.name, set);
      new Gauge<L>({
        ...config,
        registers: [registry],
        async collect() {
          this.reset();
          // A source that fails (Redis away) leaves its series out of this scrape instead of failing it.
          await Promise.allSettled([...set].map((read) => Promise.resolve(read((labels, value) => this.inc(labels as never, value)))));
        },
      });
    }
    const mine = source as GaugeSource<string>;
    own.add(mine);
    return () => void own.delete(mine);
  },
};

let nodeMetrics = false;

/** Node's own figures (CPU, memory, event-loop lag, GC, handles), once per process. */
export function collectNodeMetrics(): void {
  if (nodeMetrics) return;
  nodeMetrics = true;
  collectDefaultMetrics({ register: registry });
}

/** Seconds since `started` (a `process.hrtime.bigint()`), for histograms observed by hand. */
export function secondsSince(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e9;
}

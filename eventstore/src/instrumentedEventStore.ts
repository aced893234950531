import { metrics, secondsSince } from '@honeylend/observability';
import { WrongExpectedVersion, type EventStore } from './port.js';

const appendSeconds = metrics.histogram({
  name: 'honeylend_eventstore_append_duration_seconds',
  help: 'Time one append took, by adapter and outcome (ok, conflict: the stream was not at the expected revision, error)',
  labelNames: ['adapter', 'outcome'],
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
});

/**
 * The same store, with every append timed into `honeylend_eventstore_append_duration_seconds`.
 * A proxy rather than a wrapper class, so whatever else an adapter offers (now or later) passes
 * through untouched.
 */
export function instrumentEventStore<S extends EventStore>(store: S): S {
  const append: EventStore['append'] = async (stream, events, options) => {
    const started = process.hrtime.bigint();
    try {
      const result = await store.append(stream, events, options);
      appendSeconds.observe({ adapter: store.kind, outcome: 'ok' }, secondsSince(started));
      return result;
    } catch (error) {
      appendSeconds.observe({ adapter: store.kind, outcome: error instanceof WrongExpectedVersion ? 'conflict' : 'error' }, secondsSince(started));
      throw error;
    }
  };
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property) {
      if (property === 'append') return append;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      let method = bound.get(property);
      if (method === undefined) bound.set(property, (method = value.bind(target)));
      return method;
    },
  });
}

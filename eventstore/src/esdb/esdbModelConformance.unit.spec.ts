import { describeEventStoreConformance } from '../conformance.js';
import { EsdbEventStore } from './esdbEventStore.js';
import { FakeEsdbClient } from './testing/fakeEsdbClient.js';

/**
 * The whole suite, run against the adapter over the model of EventStoreDB's client in
 * testing/fakeEsdbClient.ts. It checks the adapter's own logic (retries, paging, positions,
 * subscriptions) wherever the tests run; it does not stand in for the suite against a real
 * server (eventstore.int.spec.ts, through ESDB_URL or testcontainers).
 */
describeEventStoreConformance({
  name: 'EventStoreDB adapter over a model of the server',
  integrity: { appendOnly: 'store', hashChain: 'computed', densePositions: false },
  open: async () => EsdbEventStore.over(new FakeEsdbClient()),
  openEmpty: async () => EsdbEventStore.over(new FakeEsdbClient()),
});

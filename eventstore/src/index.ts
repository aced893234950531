export * from './port.js';
export { IdempotentRetryMismatch } from './idempotentRetry.js';
export { openEventStore, SUPPORTED_EVENT_STORE_URLS, type OpenEventStoreOptions } from './openEventStore.js';
export { PgliteEventStore, type PgliteEventStoreOptions } from './pgliteEventStore.js';
export { PostgresEventStore, type PostgresEventStoreOptions } from './postgresEventStore.js';
export { EsdbEventStore } from './esdb/esdbEventStore.js';
// conformance.ts is left out on purpose: it imports vitest, which production code must not load.

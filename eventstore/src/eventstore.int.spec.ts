import { describe, it } from 'vitest';
import { describeEventStoreConformance } from './conformance.js';
import { esdbTarget, pgliteTarget, postgresReachability, postgresTarget } from './testing/adapterTargets.js';

// Every adapter passes the same suite; one that cannot be reached shows up as one skipped test saying why.

describeEventStoreConformance(pgliteTarget());

const postgres = await postgresReachability();
if (postgres.reachable) describeEventStoreConformance(postgresTarget());
else describe('PostgreSQL conformance', () => it.skip(`PostgreSQL conformance skipped: ${postgres.reason}`, () => undefined));

const esdb = await esdbTarget();
if ('reason' in esdb) describe('EventStoreDB conformance', () => it.skip(`EventStoreDB conformance skipped: ${esdb.reason}`, () => undefined));
else describeEventStoreConformance(esdb);

import type { Redis } from 'ioredis';
import type { ReadModelKeys } from '@honeylend/contracts';
import type { EventStore } from '@honeylend/eventstore';

/** What the servicing jobs (the day close, the reminders) read and write: the log, and the loans as the read models list them. */
export interface LoanBookDeps {
  store: EventStore;
  redis: Redis;
  keys: ReadModelKeys;
}

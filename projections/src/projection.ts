import type { DomainEvent, ReadModelKeys } from '@honeylend/contracts';
import type { RecordedEvent } from '@honeylend/eventstore';
import type { ReadModelTransaction } from './readModelTransaction.js';

/** A recorded event whose data has been validated against the event catalogue. */
export type ProjectedEvent = DomainEvent & { position: number; stream: string; revision: number; createdAt: string; metadata: RecordedEvent['metadata'] };

/** One read model: it owns its keys and its checkpoint, and turns events into writes. */
export interface Projection {
  readonly name: string;
  apply(event: ProjectedEvent, tx: ReadModelTransaction, keys: ReadModelKeys): Promise<void>;
}

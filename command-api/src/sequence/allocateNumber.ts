import { streams } from '@honeylend/contracts';
import type { EventMetadata, EventStore } from '@honeylend/eventstore';
import { handleCommand } from '../domain/commandHandler.js';
import { formatSequenceNumber, sequenceDecider } from './sequence.js';

/** Allocates (or finds again) the readable number of a loan or withdrawal; numbering restarts each year (Manila time). */
export async function allocateNumber(
  store: EventStore,
  kind: 'LN' | 'WD',
  ownerId: string,
  now: Date,
  metadata: EventMetadata,
): Promise<string> {
  const year = new Date(now.getTime() + 8 * 3_600_000).getUTCFullYear();
  const sequence = `${kind === 'LN' ? 'loan' : 'withdrawal'}-numbers-${year}`;
  // Every application of the year meets on this one stream, so it gets many more tries than a member's own stream.
  const result = await handleCommand(store, streams.sequence(sequence), sequenceDecider, { type: 'AllocateNumber', sequence, allocatedFor: ownerId }, metadata, {
    maxAttempts: 50,
  });
  const number = result.state.byOwner.get(ownerId)!;
  return formatSequenceNumber(kind, year, number);
}

import type { EventOf } from '@honeylend/contracts';
import type { Decider } from '../domain/decider.js';

/**
 * Stream sequence-<name>: human-readable numbers (LN-2026-000123, WD-2026-000045) handed out
 * without collisions. Each number is the stream's next revision, appended with the revision read,
 * so two racers can never get the same number; asking again for the same id returns its number.
 */
export type SequenceEvent = EventOf<'SequenceNumberAllocated'>;
export interface SequenceState {
  last: number;
  byOwner: Map<string, number>;
}
export type SequenceCommand = { type: 'AllocateNumber'; sequence: string; allocatedFor: string };

export const sequenceDecider: Decider<SequenceState, SequenceCommand, SequenceEvent> = {
  initialState: () => ({ last: 0, byOwner: new Map() }),
  evolve: (state, event) => ({ last: event.data.number, byOwner: new Map(state.byOwner).set(event.data.allocatedFor, event.data.number) }),
  decide: (command, state) => {
    if (state.byOwner.has(command.allocatedFor)) return [];
    return [{ type: 'SequenceNumberAllocated', data: { sequence: command.sequence, number: state.last + 1, allocatedFor: command.allocatedFor } }];
  },
};

export function formatSequenceNumber(prefix: 'LN' | 'WD', year: number, number: number): string {
  return `${prefix}-${year}-${String(number).padStart(6, '0')}`;
}

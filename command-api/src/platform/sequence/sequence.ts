import type { EventOf } from '@honeylend/contracts';

/**
 * Stream sequence-<name>: human-readable numbers (LN-2026-000123, WD-2026-000045) handed out
 * without collisions. Each number is one more than the stream's last, appended with the revision
 * read, so two racers can never get the same number; asking again for the same id returns its
 * number (allocateNumber.ts holds the rule).
 */
export type SequenceEvent = EventOf<'SequenceNumberAllocated'>;

export function formatSequenceNumber(prefix: 'LN' | 'WD', year: number, number: number): string {
  return `${prefix}-${year}-${String(number).padStart(6, '0')}`;
}

import type { AppendResult } from './port.js';

/**
 * An append re-sent some event ids that are already stored, but not as the exact same batch
 * (other ids mixed in, another order, or ids stored in another stream). That is not a retry of
 * one append, so nothing was written: the caller has a bug, and retrying will not fix it.
 */
export class IdempotentRetryMismatch extends Error {
  override readonly name = 'IdempotentRetryMismatch';
  constructor(
    readonly stream: string,
    detail: string,
  ) {
    super(`append to ${stream} rejected: ${detail}`);
  }
}

/** Where a previously appended copy of one of the new events sits. */
export interface StoredCopy {
  id: string;
  stream: string;
  revision: number;
  position: number;
}

/**
 * Decides whether an append is a client's retry of an append that already succeeded: every id
 * stored, in this stream, in the same order. Then the answer is the original append's result (its
 * last event), whatever the expected revision says now, because the retry must not fail just
 * because its first attempt moved the stream on. Returns null when none of the ids is stored.
 */
export function originalResultOfRetry(stream: string, newEventIds: readonly string[], stored: readonly StoredCopy[]): AppendResult | null {
  if (stored.length === 0) return null;
  const elsewhere = stored.find((copy) => copy.stream !== stream);
  if (elsewhere) throw new IdempotentRetryMismatch(stream, `event ${elsewhere.id} is already stored in stream ${elsewhere.stream}`);
  const inStreamOrder = [...stored].sort((a, b) => a.revision - b.revision);
  const sameBatch = inStreamOrder.length === newEventIds.length && inStreamOrder.every((copy, i) => copy.id === newEventIds[i]);
  if (!sameBatch) {
    const storedIds = new Set(inStreamOrder.map((copy) => copy.id));
    const fresh = newEventIds.filter((id) => !storedIds.has(id));
    throw new IdempotentRetryMismatch(
      stream,
      fresh.length > 0 ? `events ${[...storedIds].join(', ')} are already stored but ${fresh.join(', ')} are new` : `events ${newEventIds.join(', ')} are already stored in another order`,
    );
  }
  const last = inStreamOrder[inStreamOrder.length - 1];
  return { nextRevision: last.revision, position: last.position };
}

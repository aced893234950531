import { DeadlineExceededError, NotLeaderError, TimeoutError, UnavailableError } from '@eventstore/db-client';
import { EventStoreUnavailable } from '../port.js';

/**
 * gRPC status codes (fixed by the gRPC spec) meaning "no answer from the server": DEADLINE_EXCEEDED
 * and UNAVAILABLE. The client converts some failures into its own error classes and passes others
 * (e.g. an append to an unreachable server) as plain errors carrying the code.
 */
const UNREACHABLE_CODES = new Set<number>([4, 14]);

export function isEsdbUnreachable(error: unknown): boolean {
  if (error instanceof UnavailableError || error instanceof DeadlineExceededError || error instanceof TimeoutError || error instanceof NotLeaderError) {
    return true;
  }
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' && UNREACHABLE_CODES.has(code);
}

/** Unreachable-server failures become the port's EventStoreUnavailable; anything else stays as it is. */
export function translateEsdbError(error: unknown): unknown {
  if (error instanceof EventStoreUnavailable || !isEsdbUnreachable(error)) return error;
  return new EventStoreUnavailable(`EventStoreDB is unavailable: ${(error as Error).message}`, { cause: error });
}

import { CancelledError, DeadlineExceededError, NotLeaderError, TimeoutError, UnavailableError, UnknownError } from '@eventstore/db-client';
import { EventStoreUnavailable } from '../port.js';

/**
 * gRPC status codes (fixed by the gRPC spec) meaning "no answer from the server": CANCELLED (by
 * the server: the client drops its own cancellations), DEADLINE_EXCEEDED, ABORTED (EventStoreDB's
 * "operation timed out") and UNAVAILABLE. The client converts some failures into its own error
 * classes and passes others (e.g. an append to an unreachable server) as plain errors carrying the code.
 */
const UNREACHABLE_CODES = new Set<number>([1, 4, 10, 14]);
const INVALID_ARGUMENT = 3;

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

export function isEsdbUnreachable(error: unknown): boolean {
  if (error instanceof UnavailableError || error instanceof DeadlineExceededError || error instanceof TimeoutError || error instanceof NotLeaderError || error instanceof CancelledError) {
    return true;
  }
  const code = codeOf(error);
  return typeof code === 'number' && UNREACHABLE_CODES.has(code);
}

/**
 * The server's answer to a read of $all from a place that is not a record of its log (a number
 * this store never returned): gRPC INVALID_ARGUMENT "Trying to read from an invalid position.",
 * which the client passes on as an UnknownError carrying that code and message.
 */
export function isInvalidPositionError(error: unknown): boolean {
  return codeOf(error) === INVALID_ARGUMENT && /invalid position/i.test((error as Error).message ?? '');
}

/**
 * Whether an append that failed this way may nonetheless have been written. A server that timed
 * out (its write timeout is 2 s), a connection that broke, a call the server cancelled, an
 * unknown server error: the events may be in the log, or queued to get there. A follower's
 * refusal (NotLeader) and the server's explicit answers (conflict, access denied, too large) mean
 * nothing was written.
 */
export function isAppendOutcomeUnknown(error: unknown): boolean {
  if (error instanceof NotLeaderError) return false;
  return isEsdbUnreachable(error) || error instanceof UnknownError;
}

/** Unreachable-server failures become the port's EventStoreUnavailable; anything else stays as it is. */
export function translateEsdbError(error: unknown): unknown {
  if (error instanceof EventStoreUnavailable || !isEsdbUnreachable(error)) return error;
  return new EventStoreUnavailable(`EventStoreDB is unavailable: ${(error as Error).message}`, { cause: error });
}

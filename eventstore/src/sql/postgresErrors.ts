import { EventStoreUnavailable } from '../port.js';

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);
/** SQLSTATEs meaning "this server cannot serve you right now", as opposed to a wrong statement. */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** What pg says when a connection dies or cannot be had, without a code. */
const CONNECTION_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Connection ended|Client has encountered a connection error|Cannot use a pool after calling end|Client was closed/i;

export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code))) return true;
  if (error instanceof AggregateError && error.errors.some(isConnectionFailure)) return true;
  return CONNECTION_MESSAGES.test(error.message);
}

/** Connection failures become the port's EventStoreUnavailable (answered as 503); anything else is a bug and stays as it is. */
export function translatePostgresError(error: unknown): unknown {
  if (error instanceof EventStoreUnavailable || !isConnectionFailure(error)) return error;
  const message = error instanceof AggregateError ? error.errors.map((e: unknown) => (e instanceof Error ? e.message : String(e))).join('; ') : (error as Error).message;
  return new EventStoreUnavailable(`PostgreSQL is unavailable: ${message || (error as { code?: string }).code}`, { cause: error });
}

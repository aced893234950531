import type { Context, Next } from 'koa';
import { ZodError } from 'zod';
import { fieldErrorsOf } from '@honeylend/contracts';
import { EventStoreUnavailable, WrongExpectedVersion } from '@honeylend/eventstore';
import { DomainError } from '../domain/decider.js';
import { ApiError } from './apiError.js';
import type { Logger } from './logger.js';

/** Redis client errors that mean "the read models cannot be reached right now". */
function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'MaxRetriesPerRequestError' ||
    /Connection is closed|ECONNREFUSED|ECONNRESET|Stream isn't writeable|enableOfflineQueue|Command timed out/i.test(error.message)
  );
}

/** Turns a thrown error into the API's JSON error; nothing internal ever reaches the client. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) return new ApiError(error.status, error.code, error.message, undefined, error.extra);
  if (error instanceof ZodError) {
    const fields = fieldErrorsOf(error);
    return new ApiError(400, 'VALIDATION_FAILED', Object.values(fields)[0] ?? 'Invalid request', { fields });
  }
  if (error instanceof WrongExpectedVersion) {
    return new ApiError(409, 'CONCURRENT_UPDATE', 'Someone else changed this at the same time. Please try again.');
  }
  if (error instanceof EventStoreUnavailable || isRedisUnavailable(error)) {
    return new ApiError(503, 'SERVICE_UNAVAILABLE', 'The service is briefly unavailable. Please try again in a moment.');
  }
  const status = (error as { status?: unknown; expose?: unknown })?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Errors raised by the HTTP layer itself (koa-body: malformed JSON, body too large, wrong type).
    if (status === 413) return new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The request is too large');
    if (status === 415) return new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the request body as JSON');
    return new ApiError(status, 'BAD_REQUEST', 'The request body is not valid JSON');
  }
  return new ApiError(500, 'INTERNAL', 'Something went wrong on our side. Please try again.');
}

export function errorHandling(logger: Logger) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.status >= 500) {
        logger.error('request failed', {
          requestId: ctx.state.requestId,
          method: ctx.method,
          path: ctx.path,
          error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error),
        });
      }
      ctx.status = apiError.status;
      ctx.body = apiError.toBody();
      if (typeof apiError.details?.retryAfterSeconds === 'number') {
        ctx.set('Retry-After', String(apiError.details.retryAfterSeconds));
      }
    }
  };
}

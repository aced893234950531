import type { Context, Next } from 'koa';
import { ZodError, type core } from 'zod';
import { fieldErrorsOf } from '@honeylend/contracts';
import { AppendOutcomeUnknown, EventStoreUnavailable, WrongExpectedVersion } from '@honeylend/eventstore';
import { DomainError } from '../commands/decider.js';
import { ApiError } from '../errors/apiError.js';
import type { Logger } from '../logging/logger.js';

/** Redis client errors that mean "the read models cannot be reached right now". */
function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'MaxRetriesPerRequestError' || /Connection is closed|ECONNREFUSED|ECONNRESET|Stream isn't writeable|enableOfflineQueue|Command timed out/i.test(error.message);
}

/** When to look again after an unconfirmed change: by then the store has settled it either way. */
const OUTCOME_UNKNOWN_RETRY_AFTER_SECONDS = 5;

/** Turns a thrown error into the API's JSON error; nothing internal ever reaches the client. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) return new ApiError(error.status, error.code, error.message, undefined, error.extra);
  if (error instanceof ZodError) {
    const fields = fieldErrorsOf(error);
    // A rule of the body's own fields kept in its schema may name the code the API has always answered with.
    const coded = error.issues.find((issue): issue is core.$ZodIssueCustom => issue.code === 'custom' && typeof issue.params?.apiCode === 'string');
    if (coded) return new ApiError(400, String(coded.params!.apiCode), coded.message, { fields });
    return new ApiError(400, 'VALIDATION_FAILED', Object.values(fields)[0] ?? 'Invalid request', { fields });
  }
  if (error instanceof WrongExpectedVersion) {
    return new ApiError(409, 'CONCURRENT_UPDATE', 'Someone else changed this at the same time. Please try again.');
  }
  if (error instanceof AppendOutcomeUnknown) {
    // Not "please try again": the change may have been made, and repeating it could make it twice.
    return new ApiError(503, 'OUTCOME_UNKNOWN', 'We could not confirm whether this went through. Please check in a moment before trying again.', { retryAfterSeconds: OUTCOME_UNKNOWN_RETRY_AFTER_SECONDS });
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

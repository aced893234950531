import type { ApiErrorBody } from '@honeylend/contracts';

/** An answer the client caused or may act on: it carries the status, a stable code and the spec's wording. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Extra top-level fields some clients read (e.g. `alreadyRegistered`, `accountStatus`). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }

  toBody(): ApiErrorBody & Record<string, unknown> {
    return { message: this.message, code: this.code, ...(this.details ? { details: this.details } : {}), ...this.extra };
  }
}

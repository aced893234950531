import type { SmsMessage, SmsSendOptions, SmsSender } from './smsSender.js';

export interface HttpSmsSenderOptions {
  gatewayUrl: string;
  apiKey: string;
  /** The sender name shown on the phone. */
  senderName: string;
  timeoutMs?: number;
}

export const DEFAULT_SMS_TIMEOUT_MS = 10_000;

/** Thrown when the gateway answers outside 2xx; carries only the status, never the gateway's body. */
export class SmsGatewayError extends Error {
  constructor(readonly status: number) {
    super(`SMS gateway answered ${status}`);
    this.name = 'SmsGatewayError';
  }
}

/**
 * Production sender: POSTs `{ to, message, sender }` as JSON to an SMS gateway with a bearer key,
 * and the message's `Idempotency-Key` header when it has one, so a repeat is delivered once.
 * The gateway's answer body is ignored on failure because gateways echo the message, and an OTP
 * message must not reach logs or job records through an error text.
 */
export class HttpSmsSender implements SmsSender {
  constructor(private readonly options: HttpSmsSenderOptions) {}

  async send({ to, body }: SmsMessage, options: SmsSendOptions = {}): Promise<void> {
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_SMS_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await fetch(this.options.gatewayUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${this.options.apiKey}`,
          ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
        },
        body: JSON.stringify({ to, message: body, sender: this.options.senderName }),
        signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
      });
    } catch (error) {
      if (timeout.aborted) throw new Error(`SMS gateway did not answer within ${timeoutMs} ms`);
      if (options.signal?.aborted) throw new Error('SMS send cancelled');
      throw new Error(`SMS gateway unreachable: ${causeOf(error)}`);
    }
    // Drain the body so the connection can be reused; its content is deliberately not read.
    await response.body?.cancel();
    if (!response.ok) throw new SmsGatewayError(response.status);
  }
}

/** fetch reports every network failure as "fetch failed"; the cause says which (ECONNREFUSED, …). */
function causeOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
}

import Router from '@koa/router';
import { ApiError } from '../http/apiError.js';
import type { ApiDeps } from '../http/context.js';
import { paymentWebhookBody } from './servicingBodies.js';
import { isValidSignature, receiveProviderPayment } from './providerPayment.js';
import { readAfterWrite } from '../consistency/readAfterWrite.js';

/**
 * POST /api/payments/webhook: a payment provider reports a payment toward a loan, signed
 * `X-Signature: sha256=<hex HMAC-SHA256 of the raw body with PAYMENT_WEBHOOK_SECRET>`. A bad or
 * missing signature is 401 and records nothing; a replayed reference records nothing twice and
 * answers the first receipt. Without a configured secret the endpoint answers 503.
 */
export function paymentWebhookRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/api/payments' });
  router.post('/webhook', async (ctx) => {
    const secret = deps.servicing.paymentWebhookSecret;
    if (!secret) throw new ApiError(503, 'WEBHOOK_NOT_CONFIGURED', 'Payments by webhook are not configured (PAYMENT_WEBHOOK_SECRET).');
    // koa-body keeps the request's exact text beside the parsed body (`includeUnparsed`): the signature is over it.
    const { body, rawBody } = ctx.request as { body?: unknown; rawBody?: unknown };
    if (typeof rawBody !== 'string') throw new ApiError(400, 'VALIDATION_FAILED', 'Send the payment as JSON (Content-Type: application/json).');
    if (!isValidSignature(rawBody, ctx.get('X-Signature') || undefined, secret)) {
      throw new ApiError(401, 'INVALID_SIGNATURE', 'The X-Signature header does not match the body.');
    }
    const input = paymentWebhookBody.parse(body ?? {});
    const { receipt, loanId, position } = await receiveProviderPayment(deps, { correlationId: ctx.state.requestId as string, causationId: ctx.state.requestId as string, actorId: 'payment-provider', ip: ctx.ip }, input);
    await readAfterWrite(ctx, deps.progress, position, async () => undefined);
    ctx.status = 201;
    ctx.body = { ...receipt, loanId, loanNumber: input.loanNumber };
  });
  return router;
}

import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { endpoint } from '../platform/http/endpoint.js';
import { providerReceipt } from '../platform/http/answerSchemas.js';
import { ApiError } from '../platform/errors/apiError.js';
import type { ApiDeps } from '../platform/context/context.js';
import { paymentWebhookBody } from './servicingBodies.js';
import { isValidSignature, receiveProviderPayment } from './providerPayment.js';
import { readAfterWrite } from '../platform/consistency/readAfterWrite.js';

/**
 * POST /api/payments/webhook: a payment provider reports a payment toward a loan, signed
 * `X-Signature: sha256=<hex HMAC-SHA256 of the raw body with PAYMENT_WEBHOOK_SECRET>`. A bad or
 * missing signature is 401 and records nothing; a replayed reference records nothing twice and
 * answers the first receipt. Without a configured secret the endpoint answers 503.
 */
export function paymentWebhookRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/api/payments' });
  router.post(
    '/webhook',
    signedByProvider(deps),
    endpoint(
      {
        summary: 'A payment provider reports a payment toward a loan (signed: X-Signature)',
        public: true,
        signedBody: true,
        body: paymentWebhookBody,
        status: 201,
        answer: providerReceipt,
        refusals: [
          '401 INVALID_SIGNATURE',
          '503 WEBHOOK_NOT_CONFIGURED',
          '400 AMOUNT_ABOVE_PAYOFF',
          '400 VALUE_DATE_BEFORE_DISBURSEMENT',
          '409 OVERPAYMENT_CONFLICT',
          '404 LOAN_NOT_FOUND',
          '409 LOAN_NOT_ACTIVE',
          '409 REFERENCE_ALREADY_RECORDED',
        ],
      },
      async (ctx, { body: input }) => {
        const { receipt, loanId, position } = await receiveProviderPayment(
          deps,
          { correlationId: ctx.state.requestId as string, causationId: ctx.state.requestId as string, actorId: 'payment-provider', ip: ctx.ip },
          input,
        );
        await readAfterWrite(ctx, deps.progress, position, async () => undefined);
        ctx.status = 201;
        ctx.body = { ...receipt, loanId, loanNumber: input.loanNumber };
      },
    ),
  );
  return router;
}

/** The signature is checked before the body is read: an unsigned request learns nothing, not even what a valid body is. */
function signedByProvider(deps: ApiDeps) {
  return async (ctx: Context, next: Next) => {
    const secret = deps.servicing.paymentWebhookSecret;
    if (!secret) throw new ApiError(503, 'WEBHOOK_NOT_CONFIGURED', 'Payments by webhook are not configured (PAYMENT_WEBHOOK_SECRET).');
    // koa-body keeps the request's exact text beside the parsed body (`includeUnparsed`): the signature is over it.
    const { rawBody } = ctx.request as { rawBody?: unknown };
    if (typeof rawBody !== 'string') throw new ApiError(400, 'VALIDATION_FAILED', 'Send the payment as JSON (Content-Type: application/json).');
    if (!isValidSignature(rawBody, ctx.get('X-Signature') || undefined, secret)) {
      throw new ApiError(401, 'INVALID_SIGNATURE', 'The X-Signature header does not match the body.');
    }
    await next();
  };
}

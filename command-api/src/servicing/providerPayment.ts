import { createHmac, timingSafeEqual } from 'node:crypto';
import { businessDateOf, earlierDate } from '@honeylend/contracts';
import type { EventMetadata } from '@honeylend/eventstore';
import type { ApiDeps } from '../platform/context/context.js';
import { LOAN_NOT_FOUND, recordOutsideRepayment, type Position, type Receipt } from '../lending/loanAccountCommands.js';
import type { PaymentWebhookBody } from './servicingBodies.js';

/** `X-Signature: sha256=<hex HMAC-SHA256 of the raw body>` with the shared secret; compared in constant time. */
export function isValidSignature(rawBody: string, header: string | undefined, secret: string): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '');
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(rawBody, 'utf8').digest();
  const given = Buffer.from(match[1], 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function signPayload(rawBody: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex')}`;
}

/**
 * A payment provider reports money paid toward a loan, named by its number. The value date is the
 * Manila date it was paid (never later than today's business date). The provider's reference is
 * accepted once: a replay answers the first receipt and records nothing.
 */
export async function receiveProviderPayment(deps: ApiDeps, actor: EventMetadata, body: PaymentWebhookBody): Promise<{ receipt: Receipt; loanId: string; position: Position }> {
  const loanId = await deps.readModels.loanIdByNumber(body.loanNumber);
  if (!loanId) throw LOAN_NOT_FOUND();
  const valueDate = earlierDate(businessDateOf(body.paidAt), await deps.businessClock.today());
  const { receipt, position } = await recordOutsideRepayment(deps, actor, loanId, { amountCentavos: body.amount, channel: body.channel, source: 'provider', reference: body.reference, valueDate });
  return { receipt, loanId, position };
}

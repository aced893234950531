import type { z } from 'zod';
import { moneyRequestIn } from './moneyRequests.js';

/** What the refusal says, e.g. "A message to a member may not ask the borrower to pay …". */
export function moneyRequestMessage(what: string, found: string): string {
  return `${what} may not ask the borrower to pay, deposit or send money (it reads as ${found}). Honeylend never asks borrowers for money this way.`;
}

/**
 * Staff text that reaches a borrower (a notification, a loan status, its message, a withdrawal's
 * rejection reason or payout reference) passes the no-money-request filter (moneyRequests.ts): a 400
 * MONEY_REQUEST on the field that asks for money, and nothing is recorded or sent. It is a
 * refinement of the body's own schema (issue 18, item 4), so the API reference, the fuzzing check
 * (which judges validity by the schema) and the handler agree; call it from a `superRefine` with
 * the fields' texts by path.
 */
export function refineMoneyRequests(ctx: z.RefinementCtx, texts: Record<string, string | null | undefined>, what: string): void {
  for (const [field, text] of Object.entries(texts)) {
    const found = text ? moneyRequestIn(text) : null;
    if (!found) continue;
    ctx.addIssue({ code: 'custom', path: field.split('.'), message: moneyRequestMessage(what, found), params: { apiCode: 'MONEY_REQUEST' } });
    return;
  }
}

import type { z } from 'zod';
import { moneyRequestIn } from '../../loan/borrowerMessages.js';

/** What the refusal says, e.g. "A message to a member may not ask the borrower to pay …". */
export function moneyRequestMessage(what: string, words: string): string {
  return `${what} may not ask the borrower to pay, deposit or send money ("${words}"). Honeylend never asks borrowers for money this way.`;
}

/**
 * Staff text that reaches a borrower (a notification, a withdrawal's rejection reason) passes the
 * same no-money-request filter as loan status messages (borrowerMessages.ts): a 400
 * MONEY_REQUEST on the field that asks for money, and nothing is recorded or sent. It is a
 * refinement of the body's own schema (issue 18, item 4), so the API reference, the fuzzing check
 * (which judges validity by the schema) and the handler agree; call it from a `superRefine` with
 * the fields' texts by path.
 */
export function refineMoneyRequests(ctx: z.RefinementCtx, texts: Record<string, string | null | undefined>, what: string): void {
  for (const [field, text] of Object.entries(texts)) {
    const words = text ? moneyRequestIn(text) : null;
    if (!words) continue;
    ctx.addIssue({ code: 'custom', path: field.split('.'), message: moneyRequestMessage(what, words), params: { apiCode: 'MONEY_REQUEST' } });
    return;
  }
}

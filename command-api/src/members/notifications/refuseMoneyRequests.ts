import type { z } from 'zod';

/**
 * What staff may write to a borrower. Advance-fee fraud ("your loan is approved, pay a release
 * fee first") is the classic harm of lending apps, and its sibling is the staff member who asks
 * for the instalment on their own GCash. Now that loans are repaid, staff may write about the
 * loan's own instalments ("your instalment of ₱13,000 is due on 15 May; pay it in the app"), but
 * never: a fee, deposit or charge to unlock, release or process anything; money sent or
 * transferred anywhere; a payment to a number or to somebody's own account. The product's own
 * ways to pay (the wallet, and GCash, Maya, bank or counter payments quoting the loan number)
 * need none of those words.
 */
const MONEY_REQUESTS: RegExp[] = [
  /\b(deposit|deposits|fee|fees|remit|remittance|cash[- ]?in|unlock|unlocking|release charge|processing charge)\b/i,
  /\b(send|sending|transfer|transferring|wire)\b[^.!?]*\b(money|funds|amount|gcash|maya|peso|pesos|php)\b|₱[^.!?]*\b(send|transfer|wire)\b/i,
  /\b(pay|pays|paying|payment|payments)\b[^.!?]*((?<![\w-])\d[\d -]{8,}\d|\b(my|our|his|her|agent'?s?|personal|staff)\s+(own\s+)?(account|gcash|maya|number|wallet)\b)/i,
  /\b(pay|pays|paying|payment|payments)\b[^.!?]*\b(to (approve|release|process|activate)|before (approval|release|disbursement)|for (approval|release|processing))\b/i,
];

/** The words that made a message a request for money, or null when it asks for none. */
export function moneyRequestIn(text: string): string | null {
  for (const pattern of MONEY_REQUESTS) {
    const match = pattern.exec(text);
    if (match) return match[0];
  }
  return null;
}

/** What the refusal says, e.g. "A message to a member may not ask the borrower to pay …". */
export function moneyRequestMessage(what: string, words: string): string {
  return `${what} may not ask the borrower to pay, deposit or send money ("${words}"). Honeylend never asks borrowers for money this way.`;
}

/**
 * Staff text that reaches a borrower (a notification, a withdrawal's rejection reason) passes the
 * same no-money-request filter as loan status messages: a 400
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

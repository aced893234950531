import { ApiError } from '../../http/apiError.js';
import { moneyRequestIn } from '../../loan/borrowerMessages.js';

/**
 * Staff text that reaches a borrower (a notification, a withdrawal's rejection reason) passes the
 * same no-money-request filter as loan status messages (borrowerMessages.ts): a 400 on the field
 * that asks for money, and nothing is recorded or sent.
 */
export function refuseMoneyRequests(texts: Record<string, string | undefined>, what: string): void {
  for (const [field, text] of Object.entries(texts)) {
    const words = text ? moneyRequestIn(text) : null;
    if (!words) continue;
    const message = `${what} may not ask the borrower to pay, deposit or send money ("${words}"). Honeylend never asks borrowers for money this way.`;
    throw new ApiError(400, 'MONEY_REQUEST', message, { fields: { [field]: message } });
  }
}

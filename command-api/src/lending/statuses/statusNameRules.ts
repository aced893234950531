import type { z } from 'zod';
import { moneyRequestIn, numberIn } from '../../platform/text/moneyRequests.js';

/**
 * A loan status's name is shown to the borrower (their loan's status, and the default message "Your
 * loan application … is now: …"), so a custom status is staff text like any other: it may not ask
 * for money, and as a step's name it has no use for a phone or account number
 * (`pay_release_fee_gcash_09171234567`). Adds a 400 MONEY_REQUEST issue at `path` and answers
 * whether it did.
 */
export function refuseMoneyInStatusName(ctx: z.RefinementCtx, status: string, path: string[]): boolean {
  const found = moneyRequestIn(status) ?? (numberIn(status) ? 'a phone or account number' : null);
  if (!found) return false;
  const message = `A loan status is shown to the borrower: it may not ask them to pay, deposit or send money, or carry a phone or account number (it reads as ${found}).`;
  ctx.addIssue({ code: 'custom', path, message, params: { apiCode: 'MONEY_REQUEST' } });
  return true;
}

import { z } from 'zod';
import { adminLoanTermsBody, loanStatusSchema } from '@honeylend/contracts';
import { LOAN_MESSAGES } from '../decide.js';
import { refineMoneyRequests } from '../../platform/text/refuseMoneyRequests.js';
import { refuseMoneyInStatusName } from '../statuses/statusNameRules.js';
import { normaliseLoanStatus } from '../statuses/customLoanStatuses.js';

export const ADMIN_LOAN_MESSAGES = {
  status: 'Choose a loan status',
  nothingToChange: 'Send a status, or an amount and term',
  messageTooLong: 'Keep the message under 1000 characters',
  titleTooLong: 'Keep the title under 120 characters',
} as const;

const optionalText = (max: number, message: string) =>
  z
    .string({ error: message })
    .trim()
    .max(max, message)
    .nullable()
    .optional()
    .transform((value) => (value ? value : undefined));

/**
 * PUT /api/admin/loans/:id, the status part: the new status, what to tell the borrower about it
 * (required for account_issue), and `notify` to also send it as a notification (true, or a
 * title and message of the admin's own).
 */
export const loanStatusUpdateBody = z
  .object({
    status: z
      .string({ error: ADMIN_LOAN_MESSAGES.status })
      .transform(normaliseLoanStatus)
      .refine((status) => loanStatusSchema.safeParse(status).success, ADMIN_LOAN_MESSAGES.status)
      .optional(),
    message: optionalText(1000, ADMIN_LOAN_MESSAGES.messageTooLong),
    notify: z
      .union([z.boolean(), z.object({ title: optionalText(120, ADMIN_LOAN_MESSAGES.titleTooLong), message: optionalText(1000, ADMIN_LOAN_MESSAGES.messageTooLong) })], {
        error: 'notify is true, or { title, message }',
      })
      .optional(),
  })
  .superRefine((update, ctx) => {
    // The borrower must learn what to fix: a body asking for account_issue without any text to send is incomplete.
    const notifyMessage = typeof update.notify === 'object' ? update.notify.message : undefined;
    if (update.status === 'account_issue' && !update.message && !notifyMessage) {
      ctx.addIssue({ code: 'custom', path: ['message'], message: LOAN_MESSAGES.accountIssueNeedsMessage, params: { apiCode: 'MESSAGE_REQUIRED' } });
    }
    // The status (a custom one defined before names were checked included), its message and the
    // notification are all read by the borrower: none may ask them for money.
    if (update.status !== undefined && refuseMoneyInStatusName(ctx, update.status, ['status'])) return;
    refineMoneyRequests(ctx, { message: update.message, 'notify.title': typeof update.notify === 'object' ? update.notify.title : undefined, 'notify.message': notifyMessage }, "Messages about a loan's status");
  });
export type LoanStatusUpdate = z.infer<typeof loanStatusUpdateBody>;

/**
 * PUT /api/admin/loans/:id: the status part and the terms part (amount and term, admin limits of
 * spec §5) in one body, which must change something.
 */
export const adminLoanUpdateBody = loanStatusUpdateBody.and(adminLoanTermsBody).superRefine((update, ctx) => {
  if (update.status === undefined && update.amountCentavos === undefined && update.termMonths === undefined) {
    ctx.addIssue({ code: 'custom', path: ['status'], message: ADMIN_LOAN_MESSAGES.nothingToChange });
  }
});

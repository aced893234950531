import { z } from 'zod';
import { DELINQUENCY_BUCKETS, isBusinessDate, pesoAmountField, repaymentChannelSchema } from '@honeylend/contracts';
import { LIST_MESSAGES } from '../platform/lists/listQuery.js';

export const SERVICING_MESSAGES = {
  amount: 'Enter an amount of at least ₱0.01',
  channel: 'Choose how the money came: gcash, maya, bank or cash',
  reference: "Enter the channel's reference (1 to 100 characters)",
  valueDate: 'Enter the value date as YYYY-MM-DD',
  reason: 'Give a reason (5 to 500 characters)',
  loanNumber: 'loanNumber must look like LN-2026-000123',
  paidAt: 'paidAt must be a date and time with its zone, e.g. 2026-11-22T08:00:00+08:00',
  date: 'Enter the business date as YYYY-MM-DD',
  bucket: 'Choose a bucket: 1-30, 31-60, 61-90 or 90+',
} as const;

const amount = pesoAmountField(SERVICING_MESSAGES.amount, { min: 0.01 });
const businessDate = (message: string) => z.string({ error: message }).trim().refine(isBusinessDate, message);
const reason = z.string({ error: SERVICING_MESSAGES.reason }).trim().min(5, SERVICING_MESSAGES.reason).max(500, SERVICING_MESSAGES.reason);
const outsideChannel = z.enum(repaymentChannelSchema.options.filter((channel) => channel !== 'wallet') as ['gcash', 'maya', 'bank', 'cash'], {
  error: SERVICING_MESSAGES.channel,
});
const reference = z.string({ error: SERVICING_MESSAGES.reference }).trim().min(1, SERVICING_MESSAGES.reference).max(100, SERVICING_MESSAGES.reference);

/** POST /api/loans/:id/repayments: the borrower pays from the wallet. */
export const walletRepaymentBody = z.object({ amount });
export type WalletRepaymentBody = z.output<typeof walletRepaymentBody>;

/** POST /api/admin/loans/:id/repayments: money that came through an outside channel. */
export const adminRepaymentBody = z.object({
  amount,
  channel: outsideChannel,
  reference,
  valueDate: businessDate(SERVICING_MESSAGES.valueDate),
  /** Needed only when the loan already has this reference (409 REFERENCE_ALREADY_RECORDED): why this is another payment. */
  duplicateReferenceReason: reason.optional(),
});
export type AdminRepaymentBody = z.output<typeof adminRepaymentBody>;

/** POST /api/payments/webhook: the payment provider's report (its signature is checked before this). */
export const paymentWebhookBody = z.object({
  reference,
  loanNumber: z
    .string({ error: SERVICING_MESSAGES.loanNumber })
    .trim()
    .regex(/^LN-\d{4}-\d{6,}$/, SERVICING_MESSAGES.loanNumber),
  amount,
  paidAt: z.iso.datetime({ offset: true, error: SERVICING_MESSAGES.paidAt }),
  channel: outsideChannel,
});
export type PaymentWebhookBody = z.output<typeof paymentWebhookBody>;

export const reversalBody = z.object({ reason });
export type ReversalBody = z.output<typeof reversalBody>;

export const penaltyWaiverBody = z.object({ amount, reason });
export type PenaltyWaiverBody = z.output<typeof penaltyWaiverBody>;

export const businessDateBody = z.object({ date: businessDate(SERVICING_MESSAGES.date) });

export const collectionsQuery = z.object({
  bucket: z
    .enum(DELINQUENCY_BUCKETS.filter((bucket) => bucket !== 'current') as ['1-30', '31-60', '61-90', '90+'], { error: SERVICING_MESSAGES.bucket })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  page: z
    .string({ error: LIST_MESSAGES.page })
    .regex(/^\d{1,6}$/, LIST_MESSAGES.page)
    .transform(Number)
    .pipe(z.number().min(1, LIST_MESSAGES.page))
    .optional()
    .transform((page) => page ?? 1),
});

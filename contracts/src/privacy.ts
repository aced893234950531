import { z } from 'zod';
import type { ClosureObligation } from './privacyRecords.js';
import { registerBody } from './validation.js';

export * from './privacyRecords.js';

/** A notice version as sent and stored: a short label, e.g. a date. */
export const noticeVersionSchema = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9._-]+$/, 'a notice version is letters, digits, dots, dashes');

/**
 * A borrower's own registration: the fields of registerBody and the version of the privacy notice
 * the form showed and the person accepted (RA 10173 sec. 12), recorded as their consent. (Apart
 * from registerBody, which the browser's form validation loads, to keep its first load small.)
 */
export const selfRegistrationBody = registerBody.extend({ privacyNoticeVersion: noticeVersionSchema.optional() });
export type SelfRegistrationBody = z.infer<typeof selfRegistrationBody>;

export const consentBody = z.object({ noticeVersion: noticeVersionSchema }).strict();
export type ConsentBody = z.infer<typeof consentBody>;

export const CLOSURE_REASON_MESSAGE = 'Tell us in a few words why you want your account closed (3 to 500 characters).';
export const closureRequestBody = z.object({ reason: z.string({ error: CLOSURE_REASON_MESSAGE }).trim().min(3, CLOSURE_REASON_MESSAGE).max(500, CLOSURE_REASON_MESSAGE) }).strict();
export type ClosureRequestBody = z.infer<typeof closureRequestBody>;

/** What keeps an account open: money owed or held on either side. */
export const closureObligationSchema: z.ZodType<ClosureObligation> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('loan'), loanId: z.uuid() }).strict(),
  z.object({ kind: z.literal('withdrawal'), withdrawalId: z.uuid() }).strict(),
  z.object({ kind: z.literal('wallet'), balanceCentavos: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) }).strict(),
]);

import { z } from 'zod';
import { documentUrlField, hasWholeCentavos, memberStatusSchema, pesosToCentavos, phoneField, profileFields, registerBody } from '@honeylend/contracts';
import { ApiError } from '../../platform/errors/apiError.js';

export const ADMIN_MEMBER_MESSAGES = {
  status: 'Status must be active, pending or suspended',
  creditScore: 'Credit score must be between 300 and 850',
  adjustmentAmount: 'Enter a non-zero amount in pesos, e.g. 500 or -250.50',
  adjustmentTooLarge: 'An adjustment moves at most ₱10,000,000',
  adjustmentReason: 'Give a reason of at least 5 characters',
  passwordNotEditable: 'Passwords are never shown or set by staff: POST /api/admin/users/:id/password-reset texts the member a code to choose a new one with.',
  otpNotEditable: 'OTP codes are made by the server and texted to the member; nobody can set or read them.',
  balanceNotEditable: 'The balance changes only through an adjustment with a reason: POST /api/admin/users/:id/balance-adjustments.',
} as const;

const numberOrNumeric = (message: string) =>
  z.union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^[+-]?\d+(\.\d+)?$/, message)
        .transform(Number),
    ],
    { error: message },
  );

export const creditScoreField = numberOrNumeric(ADMIN_MEMBER_MESSAGES.creditScore).pipe(
  z.number().int(ADMIN_MEMBER_MESSAGES.creditScore).min(300, ADMIN_MEMBER_MESSAGES.creditScore).max(850, ADMIN_MEMBER_MESSAGES.creditScore),
);

/**
 * The spec's client may send password, plainPassword and otpCode with an edit (spec §7). Design
 * §7 replaces them with a reset and server-made codes, so a value that would change something is
 * refused with where to go instead — never silently dropped, which would let an admin believe it
 * was applied. Empty values (as a form sends them) are fine.
 */
const notEditable = (message: string) =>
  z
    .unknown()
    .refine((value) => value === undefined || value === null || value === '', { message, params: { apiCode: 'FIELD_NOT_EDITABLE' } })
    .optional()
    .meta({ description: `Only empty (or left out). ${message}` });

/** PUT /api/admin/users/:id: any of the admin member form's fields (spec §5), sent partially. */
export const adminMemberUpdateBody = z
  .object({
    fullName: profileFields.fullName.optional(),
    email: profileFields.email,
    address: profileFields.address.optional(),
    countryOfWork: profileFields.countryOfWork.optional(),
    monthlySalary: profileFields.monthlySalary.optional(),
    referenceName: profileFields.referenceName.optional(),
    referencePhone: profileFields.referencePhone.optional(),
    bankName: profileFields.bankName.optional(),
    bankAccountNumber: profileFields.bankAccountNumber.optional(),
    phone: phoneField.optional(),
    status: z.enum(memberStatusSchema.options, { error: ADMIN_MEMBER_MESSAGES.status }).optional(),
    creditScore: creditScoreField.optional(),
    idFrontUrl: documentUrlField.optional(),
    idBackUrl: documentUrlField.optional(),
    selfieUrl: documentUrlField.optional(),
    password: notEditable(ADMIN_MEMBER_MESSAGES.passwordNotEditable),
    plainPassword: notEditable(ADMIN_MEMBER_MESSAGES.passwordNotEditable),
    otpCode: notEditable(ADMIN_MEMBER_MESSAGES.otpNotEditable),
    // Whether a balance changes something depends on the member's balance: the route checks it.
    balance: z
      .unknown()
      .optional()
      .meta({ description: `The current balance echoed back, or left out. ${ADMIN_MEMBER_MESSAGES.balanceNotEditable}` }),
  })
  .strip()
  .transform(({ password: _password, plainPassword: _plainPassword, otpCode: _otpCode, ...update }) => update);
export type AdminMemberUpdate = Omit<z.infer<typeof adminMemberUpdateBody>, 'balance'>;

/** A balance sent with an edit must be the member's current one: it changes only through an adjustment with a reason. */
export function refuseBalanceChange(balance: unknown, currentBalancePesos: number): void {
  if (balance === undefined || balance === null || balance === '' || Number(balance) === currentBalancePesos) return;
  throw new ApiError(400, 'FIELD_NOT_EDITABLE', ADMIN_MEMBER_MESSAGES.balanceNotEditable, { fields: { balance: ADMIN_MEMBER_MESSAGES.balanceNotEditable } });
}

/** POST /api/admin/users (and POST /api/auth/register with a staff token): the registration form. */
/** A member an admin registers: consent to the privacy notice is the member's own to give (at their first sign-in). */
export const adminMemberCreateBody = registerBody;

const MAX_ADJUSTMENT_PESOS = 10_000_000;

/** POST /api/admin/users/:id/balance-adjustments: signed pesos (+ credits, − debits) and why. */
export const balanceAdjustmentBody = z.object({
  amount: numberOrNumeric(ADMIN_MEMBER_MESSAGES.adjustmentAmount)
    .refine((pesos) => Number.isFinite(pesos) && pesos !== 0, ADMIN_MEMBER_MESSAGES.adjustmentAmount)
    .refine((pesos) => Math.abs(pesos) <= MAX_ADJUSTMENT_PESOS, ADMIN_MEMBER_MESSAGES.adjustmentTooLarge)
    .refine(hasWholeCentavos, 'Amounts have at most two decimals')
    .transform(pesosToCentavos),
  reason: z.string({ error: ADMIN_MEMBER_MESSAGES.adjustmentReason }).trim().min(5, ADMIN_MEMBER_MESSAGES.adjustmentReason).max(500, 'Keep the reason under 500 characters'),
});

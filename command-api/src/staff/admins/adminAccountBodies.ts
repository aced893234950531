import { z } from 'zod';
import { MESSAGES, adminRoleSchema, passwordField, phoneField } from '@honeylend/contracts';

export const ADMIN_ACCOUNT_MESSAGES = {
  emailAndPassword: 'Please fill in both email and password',
  nothingToChange: 'Send the email, password, name or phone to change',
  passwordEmpty: 'Password cannot be empty',
  newRole: 'Role must be admin or auditor',
  roleKept: 'An account keeps the role it was created with; add a new account for another role.',
} as const;

const optionalFullName = z
  .string({ error: MESSAGES.fullNameRequired })
  .trim()
  .max(120, 'At most 120 characters')
  .nullable()
  .optional()
  .transform((value) => value || undefined)
  .refine((value) => value === undefined || value.length >= 2, MESSAGES.fullNameRequired);

const optionalPhone = z.preprocess((value) => (value === '' || value === null ? undefined : value), phoneField.optional());

const emailField = (missing: string) =>
  z
    .string({ error: missing })
    .trim()
    .min(1, missing)
    .pipe(z.email({ error: MESSAGES.emailInvalid }).max(200, MESSAGES.emailInvalid).toLowerCase());

/**
 * POST /api/admin/create-admin (spec §7): the new admin signs in with the email (or the phone).
 * `role: 'auditor'` makes a read-only auditor (issue 16); there is one main admin, never created here.
 */
export const createAdminBody = z.object({
  email: emailField(ADMIN_ACCOUNT_MESSAGES.emailAndPassword),
  password: z.string({ error: ADMIN_ACCOUNT_MESSAGES.emailAndPassword }).min(1, ADMIN_ACCOUNT_MESSAGES.emailAndPassword).pipe(passwordField),
  fullName: optionalFullName,
  phone: optionalPhone,
  role: z.enum(['admin', 'auditor'], { error: ADMIN_ACCOUNT_MESSAGES.newRole }).optional(),
});

/** PATCH /api/admin/users/:id (spec §7 "admin edit"): whatever is sent changes. */
export const updateAdminBody = z
  .object({
    email: z.preprocess((value) => (value === '' || value === null ? undefined : value), emailField(MESSAGES.emailInvalid).optional()),
    password: z.preprocess((value) => (value === null ? undefined : value), z.string({ error: ADMIN_ACCOUNT_MESSAGES.passwordEmpty }).min(1, ADMIN_ACCOUNT_MESSAGES.passwordEmpty).pipe(passwordField).optional()),
    fullName: optionalFullName,
    phone: optionalPhone,
    role: z.enum(adminRoleSchema.options, { error: 'Role must be admin, superadmin or auditor' }).optional(),
  })
  .superRefine((input, ctx) => {
    if ([input.email, input.password, input.fullName, input.phone, input.role].every((value) => value === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: ADMIN_ACCOUNT_MESSAGES.nothingToChange });
    }
  });

import { z } from 'zod';
import { normalisePhone } from './phone.js';
import { hasWholeCentavos, pesosToCentavos } from './money.js';

// The messages live in a module without zod, so a browser page that only shows one (the borrower
// app's suspended notice) does not download the validation library (issue 20).
export { MESSAGES } from './messages.js';
import { MESSAGES } from './messages.js';
import { parsePesoText } from './pesoText.js';

// Without zod, for the borrower app's first load (issue 20); still this module's export.
export { parsePesoText };

const text = (min: number, message: string, max = 200) => z.string({ error: message }).trim().min(min, message).max(max, `At most ${max} characters`);

/** An optional text field: absent, null and '' all mean "not given". */
const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

export const phoneField = z
  .string({ error: MESSAGES.phoneRequired })
  .trim()
  .min(10, MESSAGES.phoneRequired)
  .max(20, MESSAGES.phoneInvalid)
  .transform((raw, ctx) => {
    const e164 = normalisePhone(raw);
    if (!e164) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.phoneInvalid });
      return z.NEVER;
    }
    return e164;
  });

export const passwordField = z.string({ error: MESSAGES.passwordTooShort }).min(6, MESSAGES.passwordTooShort).max(128, MESSAGES.passwordTooLong);

export const emailField = z.preprocess(emptyToUndefined, z.email({ error: MESSAGES.emailInvalid }).trim().toLowerCase().max(200, MESSAGES.emailInvalid).optional());

/** Pesos as the API speaks them (number or numeric string, separators and ₱ allowed), turned into integer centavos. */
export const pesoAmountField = (message: string, { min = 0 }: { min?: number } = {}) =>
  z
    .union(
      [
        z.number(),
        z.string().transform((text, ctx) => {
          const pesos = parsePesoText(text);
          if (pesos === null) {
            ctx.addIssue({ code: 'custom', message });
            return z.NEVER;
          }
          return pesos;
        }),
      ],
      { error: message },
    )
    .refine((pesos) => Number.isFinite(pesos) && pesos >= min && pesos <= 1_000_000_000, message)
    .refine(hasWholeCentavos, 'Amounts have at most two decimals')
    .transform(pesosToCentavos);

export const registerBody = z.object({
  phone: phoneField,
  password: passwordField,
  fullName: text(2, MESSAGES.fullNameRequired, 120),
  email: emailField,
});
export type RegisterBody = z.infer<typeof registerBody>;

export const loginBody = z.object({
  phone: phoneField,
  password: z.string({ error: MESSAGES.passwordTooShort }).min(6, MESSAGES.passwordTooShort).max(128, MESSAGES.passwordTooLong),
});
export type LoginBody = z.infer<typeof loginBody>;

export const adminLoginBody = z.object({
  username: z.string({ error: MESSAGES.usernameRequired }).trim().min(1, MESSAGES.usernameRequired).max(200),
  password: z.string({ error: MESSAGES.passwordRequired }).min(1, MESSAGES.passwordRequired).max(128),
});
export type AdminLoginBody = z.infer<typeof adminLoginBody>;

/** Every profile field of spec §3 with the §5 rules; the update is partial (send what changed). */
export const profileFields = {
  fullName: text(2, MESSAGES.fullNameRequired, 120),
  email: emailField,
  address: text(10, MESSAGES.addressRequired, 300),
  countryOfWork: text(2, MESSAGES.countryOfWorkRequired, 80),
  monthlySalary: pesoAmountField(MESSAGES.monthlySalaryRequired),
  referenceName: text(2, MESSAGES.referenceNameRequired, 120),
  referencePhone: text(10, MESSAGES.referencePhoneRequired, 20),
  bankName: text(1, MESSAGES.bankNameRequired, 80),
  bankAccountNumber: z
    .string({ error: MESSAGES.accountNumberRequired })
    .trim()
    .transform((v) => v.replace(/[\s-]/g, ''))
    .pipe(z.string().min(10, MESSAGES.accountNumberRequired).max(34, MESSAGES.accountNumberRequired)),
};

const FILE_URL = /^\/api\/files\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\?.*)?$/i;
const FILE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The file id inside a URL an upload answered (absolute or relative), or a bare file id; null for anything else. */
export function fileIdFromUrl(value: string): string | null {
  if (FILE_ID.test(value)) return value.toLowerCase();
  let path = value;
  try {
    const url = new URL(value, 'http://local');
    path = url.pathname + url.search;
  } catch {
    return null;
  }
  const match = FILE_URL.exec(path);
  return match ? match[1].toLowerCase() : null;
}

export const DOCUMENT_URL_MESSAGE = 'Upload the document first, then send the url it answered';

/**
 * An identity document: the url (or file id) an upload answered. That it has the form of one is
 * the field's own rule; that the file is the member's is the server's to check.
 */
export const documentUrlField = z
  .string({ error: DOCUMENT_URL_MESSAGE })
  .trim()
  .min(1, DOCUMENT_URL_MESSAGE)
  .max(1000, DOCUMENT_URL_MESSAGE)
  .refine((value) => fileIdFromUrl(value) !== null, DOCUMENT_URL_MESSAGE);

export const profileUpdateBody = z
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
    // The url (or file id) POST /api/upload answered; the server checks the file is the member's own.
    idFrontUrl: documentUrlField.optional(),
    idBackUrl: documentUrlField.optional(),
    selfieUrl: documentUrlField.optional(),
  })
  // Fields a borrower may not set (balance, status, role, creditScore, ...) are dropped, not applied.
  .strip();
export type ProfileUpdateBody = z.infer<typeof profileUpdateBody>;

export interface FieldErrors {
  [field: string]: string;
}

/** First message per field, in the order zod reports them, for `{ details: { fields } }`. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.map(String).join('.') : '_';
    fields[field] ??= issue.message;
  }
  return fields;
}

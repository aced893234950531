import { fieldErrorsOf, loginBody, registerBody } from '@honeylend/contracts';
import type { Credentials, Registration } from '../stores/session';

export type AuthMode = 'signin' | 'register';

export interface AuthFormValues {
  fullName: string;
  phone: string;
  email: string;
  password: string;
}

export type AuthField = keyof AuthFormValues;
export type AuthFieldErrors = Partial<Record<AuthField, string>>;

export const EMPTY_AUTH_FORM: AuthFormValues = { fullName: '', phone: '', email: '', password: '' };

/** The fields each mode shows, in the order a failed submit moves focus through them. */
export const FIELDS_OF: Record<AuthMode, readonly AuthField[]> = {
  signin: ['phone', 'password'],
  register: ['fullName', 'phone', 'email', 'password'],
};

/** What a valid form sends: the values as the server's rules normalise them (phone in E.164, text trimmed). */
export type AuthSubmission = { mode: 'signin'; credentials: Credentials } | { mode: 'register'; registration: Registration };

export type AuthValidation = { ok: true; submission: AuthSubmission } | { ok: false; errors: AuthFieldErrors };

/** Checks with the server's own rules (contracts, spec §5), so the browser and the API answer alike. */
export function validateAuthForm(mode: AuthMode, values: AuthFormValues): AuthValidation {
  if (mode === 'signin') {
    const result = loginBody.safeParse({ phone: values.phone, password: values.password });
    if (!result.success) return { ok: false, errors: onlyFormFields(fieldErrorsOf(result.error)) };
    return { ok: true, submission: { mode, credentials: result.data } };
  }
  const result = registerBody.safeParse(values);
  if (!result.success) return { ok: false, errors: onlyFormFields(fieldErrorsOf(result.error)) };
  const { email, ...required } = result.data;
  return { ok: true, submission: { mode, registration: email ? { ...required, email } : required } };
}

/** Keeps the messages this form can show beside a field; the rest are for the toast. */
export function onlyFormFields(errors: Record<string, string>): AuthFieldErrors {
  const fields: AuthFieldErrors = {};
  for (const field of Object.keys(EMPTY_AUTH_FORM) as AuthField[]) {
    const message = errors[field];
    if (message) fields[field] = message;
  }
  return fields;
}

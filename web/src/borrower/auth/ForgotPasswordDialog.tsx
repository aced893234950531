import { useState, type FormEvent } from 'react';
import { MESSAGES, normalisePhone } from '@honeylend/contracts';
import { serverFieldErrors } from '../../shared/api';
import { toast } from '../../shared/toast/toastStore';
import { Dialog, DialogActions } from '../components/Dialog';
import { FormField } from '../components/FormField';
import { confirmPasswordReset, requestPasswordReset } from '../account/accountSecurity';
import { CODE_INPUT, codeDigits } from '../../shared/codeInput';

type Field = 'phone' | 'code' | 'newPassword';

/**
 * Forgot password, from the sign-in page: the phone number, then the code texted to it with a new
 * password. The first answer is the same whether or not the number has an account.
 */
export function ForgotPasswordDialog({ open, initialPhone, onClose }: { open: boolean; initialPhone: string; onClose: () => void }) {
  const [values, setValues] = useState<Record<Field, string>>({ phone: initialPhone, code: '', newPassword: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [requested, setRequested] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function close() {
    setValues({ phone: '', code: '', newPassword: '' });
    setErrors({});
    setRequested(null);
    onClose();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const found: Partial<Record<Field, string>> = {};
    if (!normalisePhone(values.phone)) found.phone = values.phone.trim().length < 10 ? MESSAGES.phoneRequired : MESSAGES.phoneInvalid;
    if (requested !== null) {
      if (!/^\d{6}$/.test(values.code.trim())) found.code = 'Enter the 6-digit code we texted you';
      if (values.newPassword.length < 6) found.newPassword = MESSAGES.passwordTooShort;
      else if (values.newPassword.length > 128) found.newPassword = MESSAGES.passwordTooLong;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      if (requested === null) {
        setRequested(await requestPasswordReset(values.phone));
      } else {
        await confirmPasswordReset(values.phone, values.code.trim(), values.newPassword);
        toast({ title: 'Password changed', description: 'Sign in with your new password.' });
        close();
      }
    } catch (error) {
      const fields = serverFieldErrors(error);
      setErrors({ phone: fields.phone, code: fields.code, newPassword: fields.newPassword });
      if (!fields.phone && !fields.code && !fields.newPassword) {
        toast({ variant: 'destructive', title: 'Password not changed', description: (error instanceof Error && error.message) || 'Please try again' });
      }
    } finally {
      setBusy(false);
    }
  }

  const field = (name: Field) => ({
    value: values[name],
    onValueChange: (value: string) => {
      setValues((current) => ({ ...current, [name]: value }));
      setErrors((current) => ({ ...current, [name]: undefined }));
    },
    error: errors[name],
  });

  return (
    <Dialog open={open} title="Forgot password" description={requested ?? 'Enter your mobile number: we text you a code to set a new password.'} onClose={close} closeButton>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <FormField label="Phone number" name="phone" type="tel" inputMode="tel" autoComplete="tel" placeholder="09171234567" readOnly={requested !== null} {...field('phone')} />
        {requested !== null && (
          <>
            <FormField label="Code" name="code" {...CODE_INPUT} {...field('code')} onValueChange={(value) => field('code').onValueChange(codeDigits(value))} />
            <FormField label="New password" hint="(at least 6 characters)" name="newPassword" type="password" autoComplete="new-password" revealable {...field('newPassword')} />
          </>
        )}
        <DialogActions>
          <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy || undefined}>
            {busy ? 'Please wait...' : requested === null ? 'Text me a code' : 'Set new password'}
          </button>
          <button type="button" className="button button--secondary" onClick={close}>
            Cancel
          </button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

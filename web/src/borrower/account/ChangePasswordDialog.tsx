import { useState, type FormEvent } from 'react';
import { MESSAGES } from '@honeylend/contracts';
import { ApiError, serverFieldErrors } from '../../shared/api';
import { toast } from '../../shared/toast/toastStore';
import { Dialog, DialogActions } from '../components/Dialog';
import { FormField } from '../components/FormField';
import { changePassword } from './accountSecurity';

type Field = 'currentPassword' | 'newPassword';

/** Change password: the current one, then a new one (the spec's rules; the server also refuses common ones). */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [values, setValues] = useState<Record<Field, string>>({ currentPassword: '', newPassword: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [submitting, setSubmitting] = useState(false);

  function close() {
    setValues({ currentPassword: '', newPassword: '' });
    setErrors({});
    onClose();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const found: Partial<Record<Field, string>> = {};
    if (!values.currentPassword) found.currentPassword = 'Enter your current password';
    if (values.newPassword.length < 6) found.newPassword = MESSAGES.passwordTooShort;
    else if (values.newPassword.length > 128) found.newPassword = MESSAGES.passwordTooLong;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSubmitting(true);
    try {
      await changePassword(values.currentPassword, values.newPassword);
      toast({ title: 'Password changed', description: 'Every other session of your account has been signed out.' });
      setSubmitting(false);
      close();
    } catch (error) {
      setSubmitting(false);
      const fields = serverFieldErrors(error);
      setErrors({ currentPassword: fields.currentPassword, newPassword: fields.newPassword });
      if (error instanceof ApiError && (fields.currentPassword || fields.newPassword || error.accountSuspended)) return;
      toast({ variant: 'destructive', title: 'Password not changed', description: (error instanceof Error && error.message) || 'Please try again' });
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
    <Dialog open={open} title="Change password" onClose={close} closeButton>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <FormField label="Current password" name="currentPassword" type="password" autoComplete="current-password" revealable {...field('currentPassword')} />
        <FormField label="New password" hint="(at least 6 characters)" name="newPassword" type="password" autoComplete="new-password" revealable {...field('newPassword')} />
        <DialogActions>
          <button type="submit" className="button button--primary" disabled={submitting} aria-busy={submitting || undefined}>
            {submitting ? 'Please wait...' : 'Change password'}
          </button>
          <button type="button" className="button button--secondary" onClick={close}>
            Cancel
          </button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

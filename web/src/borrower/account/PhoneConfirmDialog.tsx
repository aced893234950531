import { useState, type FormEvent } from 'react';
import { ApiError, serverFieldErrors } from '../../shared/api';
import { toast } from '../../shared/toast/toastStore';
import { Dialog, DialogActions } from '../components/Dialog';
import { FormField } from '../components/FormField';
import { confirmPhoneCode, requestPhoneCode, type CodeSent } from './accountSecurity';
import { CODE_INPUT, codeDigits } from '../../shared/codeInput';

/** Confirm phone: we text a code to the member's number, they type it back. Needed before a first loan application. */
export function PhoneConfirmDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [sent, setSent] = useState<CodeSent | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  function close() {
    setSent(null);
    setCode('');
    setError(undefined);
    onClose();
  }

  async function send() {
    if (busy) return;
    setBusy(true);
    setError(undefined);
    try {
      setSent(await requestPhoneCode());
    } catch (failure) {
      toast({ variant: 'destructive', title: 'Code not sent', description: (failure instanceof Error && failure.message) || 'Please try again' });
    } finally {
      setBusy(false);
    }
  }

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (!/^\d{6}$/.test(code.trim())) {
      setError('Enter the 6-digit code we texted you');
      return;
    }
    setBusy(true);
    try {
      await confirmPhoneCode(code.trim());
      toast({ title: 'Phone confirmed', description: 'Your phone number is confirmed.' });
      setBusy(false);
      close();
    } catch (failure) {
      setBusy(false);
      const fields = serverFieldErrors(failure);
      if (fields.code) setError(fields.code);
      else if (!(failure instanceof ApiError && failure.accountSuspended)) {
        toast({ variant: 'destructive', title: 'Phone not confirmed', description: (failure instanceof Error && failure.message) || 'Please try again' });
      }
    }
  }

  return (
    <Dialog
      open={open}
      title="Confirm your phone"
      description={
        sent
          ? `We texted a 6-digit code to ${sent.sentTo}. It expires at ${new Date(sent.expiresAt).toLocaleTimeString('en-PH', { hour: 'numeric', minute: '2-digit' })}.`
          : 'We text a code to your number; typing it here proves the number is yours.'
      }
      onClose={close}
      closeButton
    >
      {sent ? (
        <form className="form" noValidate onSubmit={(event) => void confirm(event)}>
          <FormField label="Code" name="code" {...CODE_INPUT} value={code} onValueChange={(value) => (setCode(codeDigits(value)), setError(undefined))} error={error} />
          <DialogActions>
            <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy || undefined}>
              {busy ? 'Please wait...' : 'Confirm phone'}
            </button>
            <button type="button" className="button button--secondary" onClick={() => void send()} disabled={busy}>
              Send a new code
            </button>
          </DialogActions>
        </form>
      ) : (
        <DialogActions>
          <button type="button" className="button button--primary" onClick={() => void send()} disabled={busy} aria-busy={busy || undefined}>
            {busy ? 'Please wait...' : 'Text me a code'}
          </button>
          <button type="button" className="button button--secondary" onClick={close}>
            Cancel
          </button>
        </DialogActions>
      )}
    </Dialog>
  );
}

import type { UserAnswer } from '@honeylend/contracts';
import { useRef, useState, type FormEvent } from 'react';
import { ApiError, serverFieldErrors } from '../../shared/api';
import { formatPesoAmount } from '../../shared/money';
import { toast } from '../../shared/toast/toastStore';
import { Dialog, DialogActions } from '../components/Dialog';
import { FormField } from '../components/FormField';
import { PesoField } from '../components/PesoField';
import { PROFILE_FIELDS, PROFILE_LABELS, profileValuesOf, replacesBankAccount, useProfile, validateProfile, type BankChangeCode, type ProfileErrors, type ProfileField, type ProfileValues } from '../stores/profile';
import { useSignedInUser } from '../stores/session';
import { PHILIPPINE_BANKS } from './philippineBanks';
import { CODE_INPUT, codeDigits } from '../../shared/codeInput';

const BANK_SUGGESTIONS_ID = 'philippine-banks';

const INPUT_PROPS: Partial<Record<ProfileField, { list?: string; placeholder?: string; type?: string; inputMode?: 'decimal' | 'numeric' | 'tel' | 'email'; autoComplete?: string; hint?: string }>> = {
  fullName: { autoComplete: 'name' },
  email: { type: 'email', inputMode: 'email', autoComplete: 'email', hint: '(optional)' },
  address: { autoComplete: 'street-address' },
  countryOfWork: { autoComplete: 'country-name' },
  monthlySalary: { inputMode: 'decimal', autoComplete: 'off' },
  referencePhone: { type: 'tel', inputMode: 'tel', autoComplete: 'off' },
  // Suggestions from the list of Philippine banks and e-wallets; any other name can be typed ("Other"), and the placeholder says so.
  bankName: { autoComplete: 'off', list: BANK_SUGGESTIONS_ID, placeholder: 'Pick from the list or type it' },
  bankAccountNumber: { inputMode: 'numeric', autoComplete: 'off' },
};

function displayValue(user: UserAnswer, field: ProfileField | 'phone'): string {
  if (field === 'phone') return user.phone;
  if (field === 'monthlySalary') return user.monthlySalary === null ? '—' : formatPesoAmount(user.monthlySalary);
  return user[field] || '—';
}

/** Spec §2: the edit form while incomplete; a summary with 'View more' once complete. */
export function PersonalInfoCard() {
  const user = useSignedInUser();
  const [dialog, setDialog] = useState<'none' | 'edit' | 'details'>('none');

  return (
    <section className="card" aria-labelledby="personal-info-title">
      <div className="card__header">
        <h2 id="personal-info-title" className="card__title">
          Personal Information
        </h2>
        {user.personalInfoComplete && <span className="status-badge status-badge--good">Complete</span>}
      </div>
      {user.personalInfoComplete ? (
        <>
          <dl className="facts">
            {(['fullName', 'phone', 'bankName'] as const).map((field) => (
              <div key={field}>
                <dt>{field === 'phone' ? 'Phone number' : PROFILE_LABELS[field]}</dt>
                <dd className={field === 'phone' ? 'phone-number' : undefined}>{displayValue(user, field)}</dd>
              </div>
            ))}
          </dl>
          <button type="button" className="button button--secondary" onClick={() => setDialog('details')}>
            View more
          </button>
        </>
      ) : (
        <>
          <p className="muted">Tell us about yourself and where to send your money. We need this before you can apply for a loan.</p>
          <button type="button" className="button button--primary" onClick={() => setDialog('edit')}>
            Complete personal information
          </button>
        </>
      )}
      <PersonalInfoDialog open={dialog === 'edit'} onClose={() => setDialog('none')} />
      <Dialog
        open={dialog === 'details'}
        title="Personal Information"
        onClose={() => setDialog('none')}
        closeButton
        actions={
          <>
            <button type="button" className="button button--primary" onClick={() => setDialog('edit')}>
              Edit
            </button>
            <button type="button" className="button button--secondary" onClick={() => setDialog('none')}>
              Close
            </button>
          </>
        }
      >
        <dl className="details-list">
          <dt>Phone number</dt>
          <dd className="phone-number">{user.phone}</dd>
          {PROFILE_FIELDS.map((field) => (
            <FieldRow key={field} label={PROFILE_LABELS[field]} value={displayValue(user, field)} />
          ))}
        </dl>
      </Dialog>
    </section>
  );
}

function FieldRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
}

function PersonalInfoDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  if (!open) return null;
  return <PersonalInfoForm onClose={onClose} />;
}

const CODE_LENGTH_MESSAGE = 'The code is exactly 6 digits';

const errorCodeOf = (error: unknown): string | undefined => (error instanceof ApiError && typeof error.data === 'object' && error.data !== null ? String((error.data as { code?: unknown }).code) : undefined);

function PersonalInfoForm({ onClose }: { onClose: () => void }) {
  const user = useSignedInUser();
  const save = useProfile((state) => state.save);
  const saving = useProfile((state) => state.saving);
  const requestBankChangeCode = useProfile((state) => state.requestBankChangeCode);
  const [initialValues] = useState<ProfileValues>(() => profileValuesOf(user));
  const [values, setValues] = useState<ProfileValues>(initialValues);
  const unsavedChanges = PROFILE_FIELDS.some((field) => values[field] !== initialValues[field]);
  const [errors, setErrors] = useState<ProfileErrors>({});
  // Replacing the bank account on the profile takes a code texted to the member (issue 14).
  const [bankCode, setBankCode] = useState<BankChangeCode | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const inputs = useRef<Partial<Record<ProfileField, HTMLInputElement | null>>>({});

  async function sendBankCode() {
    setBankCode(await requestBankChangeCode(values.bankName, values.bankAccountNumber));
    setCode('');
    setCodeError(undefined);
  }

  function failed(error: unknown) {
    showErrors(serverFieldErrors(error));
    if (error instanceof ApiError && error.accountSuspended) return;
    toast({ variant: 'destructive', title: 'Update failed', description: (error instanceof Error && error.message) || 'Please try again' });
  }

  async function confirmBankChange() {
    if (!/^\d{6}$/.test(code.trim())) {
      setCodeError(CODE_LENGTH_MESSAGE);
      return;
    }
    try {
      await save(values, code);
      toast({ title: 'Bank account changed', description: 'Withdrawals are paused for 24 hours to protect your money.' });
      onClose();
    } catch (error) {
      if (errorCodeOf(error)?.startsWith('OTP_') && error instanceof Error) setCodeError(error.message);
      else failed(error);
    }
  }

  function change(field: ProfileField, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  }

  function showErrors(found: ProfileErrors) {
    setErrors(found);
    const first = PROFILE_FIELDS.find((field) => found[field]);
    if (first) inputs.current[first]?.focus();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    if (bankCode) {
      await confirmBankChange();
      return;
    }
    const found = validateProfile(values);
    if (Object.keys(found).length > 0) {
      showErrors(found);
      return;
    }
    try {
      if (replacesBankAccount(user, values)) {
        await sendBankCode();
        return;
      }
      await save(values);
      toast({ title: 'Profile updated', description: 'Your personal information has been saved.' });
      onClose();
    } catch (error) {
      // The account changed elsewhere meanwhile: the server asks for the code this form did not know it needed.
      if (errorCodeOf(error) === 'BANK_CHANGE_NEEDS_CODE') {
        await sendBankCode().catch(failed);
        return;
      }
      failed(error);
    }
  }

  if (bankCode) {
    return (
      <Dialog open title="Confirm your new bank account" onClose={onClose} closeButton>
        <form className="form" noValidate onSubmit={(event) => void submit(event)}>
          <p>
            We texted a code to <strong>{bankCode.sentTo}</strong>. It confirms your new bank account <strong>{bankCode.destination}</strong>.
          </p>
          <p className="notice notice--warn">To protect your money, withdrawals are paused for 24 hours after your bank account changes.</p>
          <FormField
            label="Code from the SMS"
            name="bankChangeCode"
            {...CODE_INPUT}
            value={code}
            onValueChange={(value) => {
              setCode(codeDigits(value));
              setCodeError(undefined);
            }}
            error={codeError}
          />
          <DialogActions>
            <button type="submit" className="button button--primary" disabled={saving} aria-busy={saving || undefined}>
              {saving ? 'Please wait...' : 'Confirm change'}
            </button>
            <button type="button" className="button button--secondary" onClick={() => setBankCode(null)}>
              Back
            </button>
          </DialogActions>
        </form>
      </Dialog>
    );
  }

  return (
    <Dialog open title="Personal Information" description="All fields except email are required." onClose={onClose} closeButton unsavedChanges={unsavedChanges && !saving}>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        {PROFILE_FIELDS.map((field) => {
          const { hint, ...props } = INPUT_PROPS[field] ?? {};
          // The salary is an amount like any other: its separators go in as it is typed (issue 22, item 19).
          if (field === 'monthlySalary')
            return (
              <PesoField
                key={field}
                label={PROFILE_LABELS[field]}
                name={field}
                autoComplete="off"
                value={values[field]}
                onValueChange={(value) => change(field, value)}
                error={errors[field]}
                inputRef={(input) => {
                  inputs.current[field] = input;
                }}
              />
            );
          return (
            <FormField
              key={field}
              label={PROFILE_LABELS[field]}
              hint={hint}
              name={field}
              {...props}
              value={values[field]}
              onValueChange={(value) => change(field, value)}
              error={errors[field]}
              inputRef={(input) => {
                inputs.current[field] = input;
              }}
            />
          );
        })}
        <datalist id={BANK_SUGGESTIONS_ID}>
          {PHILIPPINE_BANKS.map((bank) => (
            <option key={bank} value={bank} />
          ))}
        </datalist>
        <DialogActions>
          <button type="submit" className="button button--primary" disabled={saving} aria-busy={saving || undefined}>
            {saving ? 'Please wait...' : 'Save'}
          </button>
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

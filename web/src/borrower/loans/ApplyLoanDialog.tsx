import {
  BORROWER_LOAN_TERM_MAX_MONTHS,
  DEFAULT_MONTHLY_RATE_BPS,
  formatPesos,
  LOAN_AMOUNT_MAX_CENTAVOS,
  LOAN_AMOUNT_MIN_CENTAVOS,
  LOAN_AMOUNT_STEP_CENTAVOS,
  LOAN_TERM_MIN_MONTHS,
  monthlyPayment,
} from '@honeylend/contracts';
import { useRef, useState, type FormEvent } from 'react';
import { ApiError, serverFieldErrors } from '../../shared/api';
import { formatPercent } from '../../shared/money';
import { toast } from '../../shared/toast/toastStore';
import { Dialog, DialogActions } from '../components/Dialog';
import { FormField, TextAreaField } from '../components/FormField';
import {
  DEFAULT_LOAN_APPLICATION,
  submitLoanApplication,
  validateLoanApplication,
  type LoanApplicationErrors,
  type LoanApplicationField,
  type LoanApplicationValues,
} from '../stores/loans';

const MIN_PESOS = LOAN_AMOUNT_MIN_CENTAVOS / 100;
const MAX_PESOS = LOAN_AMOUNT_MAX_CENTAVOS / 100;
const STEP_PESOS = LOAN_AMOUNT_STEP_CENTAVOS / 100;
const FIELD_ORDER: readonly LoanApplicationField[] = ['amount', 'purpose', 'termMonths'];

const digitsOnly = (value: string) => value.replace(/\D/g, '');

/** The estimate shown while choosing: the spec's flat-rate repayment at the standard rate. */
function estimatedMonthlyPayment(values: LoanApplicationValues): string | null {
  const checked = validateLoanApplication({ ...values, purpose: 'estimate' });
  if (!checked.ok) return null;
  return formatPesos(monthlyPayment(checked.body.amount * 100, DEFAULT_MONTHLY_RATE_BPS, checked.body.termMonths));
}

/** Spec §2 'Apply for a Loan': amount slider 80,000–4,000,000 in steps of 10,000, purpose and term, the §5 messages. */
export function ApplyLoanDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [values, setValues] = useState<LoanApplicationValues>(DEFAULT_LOAN_APPLICATION);
  const [errors, setErrors] = useState<LoanApplicationErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const inputs = useRef<Partial<Record<LoanApplicationField, HTMLInputElement | HTMLTextAreaElement | null>>>({});

  function change(field: LoanApplicationField, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  }

  function showErrors(found: LoanApplicationErrors) {
    setErrors(found);
    const first = FIELD_ORDER.find((field) => found[field]);
    if (first) inputs.current[first]?.focus();
  }

  function close() {
    if (submitting) return;
    setErrors({});
    onClose();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const checked = validateLoanApplication(values);
    if (!checked.ok) {
      showErrors(checked.errors);
      return;
    }
    setSubmitting(true);
    try {
      await submitLoanApplication(checked.body);
      toast({ title: 'Loan application submitted', description: 'Your loan application has been submitted for review.' });
      setValues(DEFAULT_LOAN_APPLICATION);
      setErrors({});
      setSubmitting(false);
      onClose();
    } catch (error) {
      setSubmitting(false);
      const fields = serverFieldErrors(error);
      showErrors({ amount: fields.amount, purpose: fields.purpose, termMonths: fields.termMonths });
      if (error instanceof ApiError && error.accountSuspended) return;
      toast({ variant: 'destructive', title: 'Application failed', description: (error instanceof Error && error.message) || 'Please try again' });
    }
  }

  const amountNumber = Number(values.amount);
  const sliderValue = Number.isFinite(amountNumber) ? Math.min(MAX_PESOS, Math.max(MIN_PESOS, amountNumber)) : MIN_PESOS;
  const estimate = estimatedMonthlyPayment(values);

  return (
    <Dialog open={open} title="Apply for a Loan" onClose={close} closeButton>
      <form className="form" noValidate onSubmit={submit}>
        <div className="field">
          <label className="field__label" htmlFor="loan-amount-slider">
            Loan amount
          </label>
          <output className="loan-amount__value" htmlFor="loan-amount-slider" aria-live="polite">
            {formatPesos(sliderValue * 100)}
          </output>
          <input
            id="loan-amount-slider"
            className="slider"
            type="range"
            min={MIN_PESOS}
            max={MAX_PESOS}
            step={STEP_PESOS}
            value={sliderValue}
            aria-valuetext={formatPesos(sliderValue * 100)}
            onChange={(event) => change('amount', event.target.value)}
          />
          <div className="slider__ends" aria-hidden="true">
            <span>₱80,000</span>
            <span>₱4,000,000</span>
          </div>
        </div>
        <FormField
          label="Amount (₱)"
          hint="in steps of 10,000"
          name="amount"
          inputMode="numeric"
          autoComplete="off"
          value={values.amount}
          onValueChange={(value) => change('amount', digitsOnly(value))}
          error={errors.amount}
          inputRef={(input) => {
            inputs.current.amount = input;
          }}
        />
        <TextAreaField
          label="Purpose of Loan"
          name="purpose"
          rows={3}
          placeholder="e.g. Stock for my sari-sari store"
          value={values.purpose}
          onValueChange={(value) => change('purpose', value)}
          error={errors.purpose}
          inputRef={(input) => {
            inputs.current.purpose = input;
          }}
        />
        <FormField
          label="Term (Months)"
          hint={`${LOAN_TERM_MIN_MONTHS} to ${BORROWER_LOAN_TERM_MAX_MONTHS}`}
          name="termMonths"
          inputMode="numeric"
          autoComplete="off"
          value={values.termMonths}
          onValueChange={(value) => change('termMonths', digitsOnly(value))}
          error={errors.termMonths}
          inputRef={(input) => {
            inputs.current.termMonths = input;
          }}
        />
        <p className="loan-estimate">
          {estimate ? (
            <>
              Estimated monthly repayment: <strong>{estimate}</strong> at {formatPercent(DEFAULT_MONTHLY_RATE_BPS / 100)} per month
            </>
          ) : (
            'Enter an amount and a term to see the monthly repayment.'
          )}
        </p>
        <DialogActions>
          <button type="submit" className="button button--primary" disabled={submitting} aria-busy={submitting || undefined}>
            {submitting ? 'Please wait...' : 'Submit application'}
          </button>
          <button type="button" className="button button--secondary" onClick={close}>
            Cancel
          </button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

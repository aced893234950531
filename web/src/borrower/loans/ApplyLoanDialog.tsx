import { BORROWER_LOAN_TERM_MAX_MONTHS, formatPesos, LOAN_AMOUNT_MAX_CENTAVOS, LOAN_AMOUNT_MIN_CENTAVOS, LOAN_AMOUNT_STEP_CENTAVOS, LOAN_TERM_MIN_MONTHS, truthInLending } from '@honeylend/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError, serverFieldErrors } from '../../shared/api';
import { formatPercent, formatPesoAmount } from '../../shared/money';
import { toast } from '../../shared/toast/toastStore';
import { Dialog, DialogActions } from '../components/Dialog';
import { FormField, TextAreaField } from '../components/FormField';
import { PesoField } from '../components/PesoField';
import { useLoanTerms } from '../stores/loanTerms';
import { FIRST_PAYMENT_TEXT } from './loanTerms';
import { submitLoanApplication } from '../stores/loans';
import { DEFAULT_LOAN_APPLICATION, validateLoanApplication, type LoanApplicationErrors, type LoanApplicationField, type LoanApplicationValues } from './loanApplication';

const MIN_PESOS = LOAN_AMOUNT_MIN_CENTAVOS / 100;
const MAX_PESOS = LOAN_AMOUNT_MAX_CENTAVOS / 100;
const STEP_PESOS = LOAN_AMOUNT_STEP_CENTAVOS / 100;
const FIELD_ORDER: readonly LoanApplicationField[] = ['amount', 'purpose', 'termMonths'];

const digitsOnly = (value: string) => value.replace(/\D/g, '');

/** Common amounts and terms, one tap each. */
const QUICK_AMOUNTS_PESOS = [100_000, 250_000, 500_000, 1_000_000] as const;
const QUICK_TERMS_MONTHS = [6, 12, 24, 36, 48] as const;

/** A typed amount rounded to the nearest step (₱10,000), once the field is left; anything else is left as typed. */
export function roundedAmount(typed: string): string {
  const pesos = Number(typed);
  if (typed === '' || !Number.isFinite(pesos) || pesos <= 0) return typed;
  return String(Math.max(STEP_PESOS, Math.round(pesos / STEP_PESOS) * STEP_PESOS));
}

/**
 * What the borrower commits to, shown before Submit (RA 3765, Truth in Lending: before the credit is
 * extended): the same `truthInLending` the contract's disclosure comes from, at the rate the server
 * is configured with (GET /api/loans/terms). The payments are timed from disbursement, so the cost
 * does not depend on when the loan is approved. Null while the amount or term is not one the
 * application accepts, or the rate is not known yet.
 */
export function applicationDisclosure(values: LoanApplicationValues, monthlyRateBps: number | null) {
  if (monthlyRateBps === null) return null;
  const checked = validateLoanApplication({ ...values, purpose: 'estimate' });
  if (!checked.ok) return null;
  return truthInLending({ principalCentavos: checked.body.amount * 100, monthlyRateBps, termMonths: checked.body.termMonths });
}

/** The field errors of what is typed so far: a field left empty is not yet wrong. */
function liveErrors(values: LoanApplicationValues): LoanApplicationErrors {
  const checked = validateLoanApplication({ ...values, purpose: 'estimate' });
  if (checked.ok) return {};
  return { amount: values.amount === '' ? undefined : checked.errors.amount, termMonths: values.termMonths === '' ? undefined : checked.errors.termMonths };
}

/** Spec §2 'Apply for a Loan': amount slider 80,000–4,000,000 in steps of 10,000, purpose and term, the §5 messages. */
export function ApplyLoanDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [values, setValues] = useState<LoanApplicationValues>(DEFAULT_LOAN_APPLICATION);
  const [errors, setErrors] = useState<LoanApplicationErrors>({});
  const [submitting, setSubmitting] = useState(false);
  /** The amount as the borrower typed it, when leaving the field rounded it to the step: said, never done silently. */
  const [roundedFrom, setRoundedFrom] = useState<number | null>(null);
  const inputs = useRef<Partial<Record<LoanApplicationField, HTMLInputElement | HTMLTextAreaElement | null>>>({});
  const monthlyRateBps = useLoanTerms((state) => state.monthlyRateBps);
  const ratesStatus = useLoanTerms((state) => state.status);
  useEffect(() => {
    if (open) useLoanTerms.getState().load();
  }, [open]);

  function change(field: LoanApplicationField, value: string) {
    if (field === 'amount') setRoundedFrom(null);
    const next = { ...values, [field]: value };
    setValues(next);
    // Amount and term are checked as they are typed, so the headline and the message never disagree.
    setErrors((current) => (field === 'purpose' ? { ...current, purpose: undefined } : { ...current, [field]: liveErrors(next)[field] }));
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
  const typedAmount = values.amount !== '' && Number.isFinite(amountNumber) ? amountNumber : null;
  const sliderValue = typedAmount === null ? MIN_PESOS : Math.min(MAX_PESOS, Math.max(MIN_PESOS, typedAmount));
  const disclosure = applicationDisclosure(values, monthlyRateBps);
  const unsavedChanges = values.amount !== DEFAULT_LOAN_APPLICATION.amount || values.purpose !== DEFAULT_LOAN_APPLICATION.purpose || values.termMonths !== DEFAULT_LOAN_APPLICATION.termMonths;

  return (
    <Dialog open={open} title="Apply for a Loan" onClose={close} closeButton unsavedChanges={unsavedChanges && !submitting}>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <div className="field">
          <label className="field__label" htmlFor="loan-amount-slider">
            Loan amount
          </label>
          {/* What was typed, even out of range (the message under the field says why); never the slider's clamp. */}
          <output className="loan-amount__value" htmlFor="loan-amount-slider" aria-live="polite">
            {typedAmount === null ? '—' : formatPesos(typedAmount * 100)}
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
        <PesoField
          label="Amount (₱)"
          hint="in steps of 10,000"
          name="amount"
          autoComplete="off"
          value={values.amount}
          onValueChange={(value) => change('amount', value)}
          onBlur={() => {
            const rounded = roundedAmount(values.amount);
            if (rounded === values.amount) return;
            change('amount', rounded);
            if (Number(rounded) !== Number(values.amount)) setRoundedFrom(Number(values.amount));
          }}
          error={errors.amount}
          inputRef={(input) => {
            inputs.current.amount = input;
          }}
        />
        {roundedFrom !== null && typedAmount !== null && (
          <p className="field__hint" role="status" data-testid="amount-rounded">
            {formatPesoAmount(roundedFrom)} was rounded to {formatPesos(typedAmount * 100)}: loans come in steps of ₱10,000.
          </p>
        )}
        <div className="chips" role="group" aria-label="Common amounts">
          {QUICK_AMOUNTS_PESOS.map((pesos) => (
            <button key={pesos} type="button" className="chip" aria-pressed={typedAmount === pesos} onClick={() => change('amount', String(pesos))}>
              {formatPesos(pesos * 100)}
            </button>
          ))}
        </div>
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
        <div className="chips" role="group" aria-label="Common terms">
          {QUICK_TERMS_MONTHS.map((months) => (
            <button key={months} type="button" className="chip" aria-pressed={values.termMonths === String(months)} onClick={() => change('termMonths', String(months))}>
              {months} months
            </button>
          ))}
        </div>
        {disclosure ? (
          <section className="loan-estimate" aria-label="What this loan costs">
            <p>
              Monthly repayment: <strong>{formatPesos(disclosure.monthlyPaymentCentavos)}</strong> at {formatPercent(disclosure.nominalMonthlyRatePercent)} per month
            </p>
            <dl className="loan-estimate__facts">
              <dt>Total to repay</dt>
              <dd data-testid="estimate-total">{formatPesoAmount(disclosure.totalRepayableCentavos / 100)}</dd>
              <dt>Finance charge</dt>
              <dd data-testid="estimate-finance-charge">{formatPesoAmount(disclosure.financeChargeCentavos / 100)}</dd>
              <dt>Effective annual rate</dt>
              <dd data-testid="estimate-effective-rate">{formatPercent(disclosure.effectiveAnnualRatePercent)}</dd>
            </dl>
            <p className="fine-print" data-testid="estimate-first-payment">
              {FIRST_PAYMENT_TEXT}
            </p>
          </section>
        ) : (
          <p className="loan-estimate">
            {monthlyRateBps === null
              ? ratesStatus === 'error'
                ? 'The interest rate could not be loaded; the cost is shown once it is.'
                : 'Loading the interest rate...'
              : typedAmount === null || values.termMonths === ''
                ? 'Enter an amount and a term to see the monthly repayment and the total cost.'
                : 'Choose an amount from ₱80,000 to ₱4,000,000 and a term from 6 to 48 months to see the cost.'}
          </p>
        )}
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

import { useId, useState, type InputHTMLAttributes, type Ref } from 'react';
import { EyeIcon, EyeOffIcon } from './icons';

interface FormFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange'> {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  error?: string;
  hint?: string;
  inputRef?: Ref<HTMLInputElement>;
  /** Adds a control that shows the typed password in clear text. */
  revealable?: boolean;
}

/** A labelled input with its hint and error read out with it. */
export function FormField({ label, value, onValueChange, error, hint, inputRef, revealable, type, ...inputProps }: FormFieldProps) {
  const id = useId();
  const [revealed, setRevealed] = useState(false);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;

  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
        {hint && (
          <span id={hintId} className="field__hint">
            {' '}
            {hint}
          </span>
        )}
      </label>
      <div className="field__control">
        <input
          {...inputProps}
          ref={inputRef}
          id={id}
          type={revealable && revealed ? 'text' : type}
          value={value}
          onChange={(event) => onValueChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className="field__input"
        />
        {revealable && (
          <button
            type="button"
            className="field__reveal"
            aria-label={revealed ? 'Hide password' : 'Show password'}
            aria-controls={id}
            aria-pressed={revealed}
            onClick={() => setRevealed((shown) => !shown)}
          >
            {revealed ? <EyeOffIcon size={20} /> : <EyeIcon size={20} />}
          </button>
        )}
      </div>
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}

import { useId, useState, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
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
export function FormField({ label, value, onValueChange, error, hint, inputRef, revealable, type, className, ...inputProps }: FormFieldProps) {
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
          className={className ? `field__input ${className}` : 'field__input'}
        />
        {revealable && (
          <button type="button" className="field__reveal" aria-label={revealed ? 'Hide password' : 'Show password'} aria-controls={id} aria-pressed={revealed} onClick={() => setRevealed((shown) => !shown)}>
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

interface FieldFrameProps {
  label: string;
  error?: string;
  hint?: string;
  children: (ids: { id: string; describedBy: string | undefined }) => ReactNode;
}

/** Label, hint and error around any control, wired for screen readers. */
export function FieldFrame({ label, error, hint, children }: FieldFrameProps) {
  const id = useId();
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
      <div className="field__control">{children({ id, describedBy })}</div>
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}

interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'value' | 'onChange'> {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  error?: string;
  hint?: string;
  inputRef?: Ref<HTMLTextAreaElement>;
}

export function TextAreaField({ label, value, onValueChange, error, hint, inputRef, ...props }: TextAreaFieldProps) {
  return (
    <FieldFrame label={label} error={error} hint={hint}>
      {({ id, describedBy }) => (
        <textarea
          {...props}
          ref={inputRef}
          id={id}
          value={value}
          onChange={(event) => onValueChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className="field__input field__input--multiline"
        />
      )}
    </FieldFrame>
  );
}

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'value' | 'onChange'> {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  options: readonly { value: string; label: string }[];
  error?: string;
}

export function SelectField({ label, value, onValueChange, options, error, ...props }: SelectFieldProps) {
  return (
    <FieldFrame label={label} error={error}>
      {({ id, describedBy }) => (
        <select {...props} id={id} value={value} onChange={(event) => onValueChange(event.target.value)} aria-invalid={error ? true : undefined} aria-describedby={describedBy} className="field__input field__select">
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

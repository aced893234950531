import { useLayoutEffect, useRef, type ComponentProps } from 'react';
import { bareAmount, caretAfterGrouping, groupedAmount } from '../../shared/pesoTyping';
import { FormField } from './FormField';

type PesoFieldProps = Omit<ComponentProps<typeof FormField>, 'value' | 'onValueChange' | 'inputMode'> & {
  /** The amount without separators ("80000", "1250.5"); what the form keeps and sends. */
  value: string;
  onValueChange: (bare: string) => void;
};

/**
 * A peso amount field that puts the thousands separators in as the borrower types (issue 22,
 * item 19) — "80,000" on the screen, "80000" in the form — keeping the caret after the digit it
 * followed.
 */
export function PesoField({ value, onValueChange, inputRef, ...props }: PesoFieldProps) {
  const input = useRef<HTMLInputElement | null>(null);
  const caret = useRef<number | null>(null);
  const shown = groupedAmount(value);

  useLayoutEffect(() => {
    const element = input.current;
    if (caret.current === null || !element || document.activeElement !== element) return;
    element.setSelectionRange(caret.current, caret.current);
    caret.current = null;
  });

  return (
    <FormField
      {...props}
      inputMode="decimal"
      value={shown}
      inputRef={(element) => {
        input.current = element;
        if (typeof inputRef === 'function') inputRef(element);
        else if (inputRef) (inputRef as { current: HTMLInputElement | null }).current = element;
      }}
      onValueChange={(typed) => {
        const bare = bareAmount(typed);
        const position = input.current?.selectionStart ?? typed.length;
        caret.current = caretAfterGrouping(typed, position, groupedAmount(bare));
        onValueChange(bare);
      }}
    />
  );
}

/**
 * A texted code's field: numeric, filled from the SMS where the phone offers it, and long enough on
 * the page that a code pasted as "001 013" or "001-013" reaches the field whole (a maxlength of 6
 * would cut it to "001 01"); `codeDigits` keeps its six digits.
 */
export const CODE_INPUT = { inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 16 } as const;

/** The digits of a code as typed or pasted, at most six. */
export function codeDigits(value: string): string {
  return value.replace(/\D/g, '').slice(0, 6);
}

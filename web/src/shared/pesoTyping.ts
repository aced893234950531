/**
 * Peso amounts typed with their thousands separators put in as the borrower types (issue 22,
 * item 19): the field shows "1,250,000.5" while the value kept (and sent) is "1250000.5". The
 * caret stays after the same digit it followed before the commas moved.
 */

/**
 * The amount as typed, without separators: digits, one point, at most two decimals. Every peso field
 * reads a point as the decimal point ("100,000.00" is a hundred thousand pesos, never ten million);
 * a field that takes whole pesos only says so itself (the loan amount rounds to its step and shows it).
 */
export function bareAmount(text: string): string {
  let digitsSeen = false;
  let point = false;
  let fraction = 0;
  let bare = '';
  for (const char of text) {
    if (/\d/.test(char)) {
      if (point) {
        if (fraction === 2) continue;
        fraction++;
      }
      digitsSeen = true;
      bare += char;
    } else if (char === '.' && !point) {
      point = true;
      bare += digitsSeen ? '.' : '0.';
    }
  }
  return bare;
}

/** "1250000.5" as "1,250,000.5": the whole pesos grouped by three, the decimals as typed. */
export function groupedAmount(bare: string): string {
  const [whole = '', fraction] = bare.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** Where the caret goes in `formatted` so that as many digits (and the point) stand before it as before `caret` in `typed`. */
export function caretAfterGrouping(typed: string, caret: number, formatted: string): number {
  let significant = 0;
  for (const char of typed.slice(0, caret)) if (/[\d.]/.test(char)) significant++;
  if (significant === 0) return 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i++) {
    if (/[\d.]/.test(formatted[i])) seen++;
    if (seen === significant) return i + 1;
  }
  return formatted.length;
}

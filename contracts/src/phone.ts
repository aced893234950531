/**
 * Philippine mobile numbers arrive as 09171234567, 639171234567, +63 917 123 4567 or 9171234567;
 * they are one number, so every one is normalised to E.164 (+639171234567) before it is stored,
 * reserved or compared. Numbers abroad are accepted in full international form (+<country><number>).
 */
const SEPARATORS = /[\s\-().]/g;
const PH_MOBILE = /^(?:\+?63|0)?(9\d{9})$/;
const INTERNATIONAL = /^\+([1-9]\d{7,14})$/;

export function normalisePhone(input: string): string | null {
  const compact = input.trim().replace(SEPARATORS, '');
  const ph = PH_MOBILE.exec(compact);
  if (ph) return `+63${ph[1]}`;
  const intl = INTERNATIONAL.exec(compact);
  if (intl && !compact.startsWith('+63')) return `+${intl[1]}`;
  return null;
}

/** Shows only the last four digits: +63•••••1234 */
export function maskPhone(e164: string): string {
  const country = e164.startsWith('+63') ? '+63' : e164.slice(0, 3);
  return `${country}•••••${e164.slice(-4)}`;
}

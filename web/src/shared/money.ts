import { formatPesos, pesosToCentavos } from '@honeylend/contracts';

/** An API peso amount as the screens show it: ₱80,000.00 */
export function formatPesoAmount(pesos: number): string {
  return formatPesos(pesosToCentavos(pesos));
}

/** A percentage with up to two decimals: 2.5%, 34.49% */
export function formatPercent(value: number): string {
  return `${new Intl.NumberFormat('en-PH', { maximumFractionDigits: 2 }).format(value)}%`;
}

/** A YYYY-MM-DD calendar date or an ISO instant as "Mar 5, 2026" (Manila calendar). */
export function formatDate(value: string): string {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00+08:00`) : new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat('en-PH', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'Asia/Manila' }).format(date);
}

/** An ISO instant as "Mar 5, 2026, 2:05 PM" (Manila time). */
export function formatDateTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat('en-PH', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Manila' }).format(date);
}

/** A status code as words: account_issue → Account issue */
export function statusLabel(status: string): string {
  const words = status.replace(/_/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : status;
}

/** An ISO instant as a Manila clock time: "2:05 PM". */
export function formatTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat('en-PH', { hour: 'numeric', minute: '2-digit', timeZone: 'Asia/Manila' }).format(date);
}

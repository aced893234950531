/** The filters of the log page, as the API takes them (empty ones are left out). */
export interface LogFilter {
  stream: string;
  type: string;
  actor: string;
  /** ISO times, or '' for none. */
  since: string;
  until: string;
}

export const NO_FILTER: LogFilter = { stream: '', type: '', actor: '', since: '', until: '' };

/** `/api/audit/<what>?…` with the filter and any extra parameters; blank values are left out. */
export function auditPath(what: 'events' | 'export', filter: LogFilter, extra: Record<string, string | number | undefined> = {}): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filter, ...extra })) {
    const text = value === undefined ? '' : String(value).trim();
    if (text !== '') query.set(key, text);
  }
  const text = query.toString();
  return `/api/audit/${what}${text ? `?${text}` : ''}`;
}

/** Centavos as the console shows pesos: ₱ 1,250.50 */
export function centavosText(centavos: number, formatPesos: (pesos: number) => string): string {
  return formatPesos(centavos / 100);
}

/** The first characters of a hash: enough to compare by eye. */
export function shortHash(hash: string | null): string {
  return hash ? `${hash.slice(0, 10)}…` : '—';
}

import type { AuditEventAnswer } from '@honeylend/contracts';
import { formatDateTime, formatPercent, formatPesoAmount } from '../../shared/money';

/** Ids every event of a stream repeats; the timeline shows what changed, not them. */
const REPEATED_FIELDS = new Set(['memberId', 'loanId', 'withdrawalId', 'adminId']);

/** "LoanStatusChanged" → "Loan status changed" */
export function eventTypeLabel(type: string): string {
  const words = type.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One field as "name: value", read the way the console shows it elsewhere. */
function fieldLine(name: string, value: unknown): string {
  if (/Centavos$/.test(name) && typeof value === 'number') return `${name.replace(/Centavos$/, '')}: ${formatPesoAmount(value / 100)}`;
  // Rates are stored in basis points (250 = 2.5 %).
  if (/Bps$/.test(name) && typeof value === 'number') return `${name.replace(/Bps$/, '')}: ${formatPercent(value / 100)}`;
  if (value === null) return `${name}: —`;
  // Events record instants in UTC; staff read Manila time, as in every table.
  if (typeof value === 'string' && ISO_INSTANT.test(value)) return `${name}: ${formatDateTime(value)}`;
  return `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`;
}

/**
 * The changed fields of an event as "name: value" lines: money in pesos, rates in percent, times in
 * Manila time, nested changes (a profile update's `changes`) one line per field.
 */
export function changedFieldLines(data: Record<string, unknown>): string[] {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(data)) {
    if (REPEATED_FIELDS.has(name) || value === undefined) continue;
    if (isPlainObject(value)) {
      for (const [field, fieldValue] of Object.entries(value)) if (fieldValue !== undefined) lines.push(fieldLine(`${name}.${field}`, fieldValue));
      continue;
    }
    lines.push(fieldLine(name, value));
  }
  return lines;
}

/** Who acted: the member themselves, a named admin, the system, or the raw id. */
export function actorLabel(event: AuditEventAnswer, subjectId: string | null, adminNames: ReadonlyMap<string, string>): string {
  const actor = event.metadata.actorId;
  if (!actor) return 'System';
  // Self-registration records the actor as 'self'.
  if (actor === subjectId || actor === 'self') return 'The member';
  return adminNames.get(actor) ?? actor;
}

/** Oldest first, by position in the log (a stream's own order). */
export function inLogOrder(events: readonly AuditEventAnswer[]): AuditEventAnswer[] {
  return [...events].sort((a, b) => a.position - b.position);
}

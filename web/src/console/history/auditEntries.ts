import type { AuditEventAnswer } from '@honeylend/contracts';
import { formatDateTime, formatPercent, formatPesoAmount } from '../../shared/money';
import { DOCUMENT_LABELS } from './documentLabels';

/** Ids mean nothing to a reader (the stream names its subject; numbers like LN-… are kept): the timeline shows what changed. */
const isIdField = (name: string) => /Id$/.test(name) || name === 'id';

/** "monthlySalaryCentavos" → "Monthly salary", "changedAt" → "Changed at": a field's name as words. */
export function fieldLabel(name: string): string {
  const words = name
    .replace(/(Centavos|Bps)$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "LoanStatusChanged" → "Loan status changed" */
export function eventTypeLabel(type: string): string {
  const words = type.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Coded values of the member's events as the console names them elsewhere. */
const CODED_VALUES: Record<string, Readonly<Record<string, string>>> = { kind: DOCUMENT_LABELS };

/** One field as "name: value", read the way the console shows it elsewhere. */
function fieldLine(name: string, value: unknown): string {
  const label = fieldLabel(name);
  const coded = typeof value === 'string' ? CODED_VALUES[name]?.[value] : undefined;
  if (coded) return `${label}: ${coded}`;
  if (/Centavos$/.test(name) && typeof value === 'number') return `${label}: ${formatPesoAmount(value / 100)}`;
  // Rates are stored in basis points (250 = 2.5 %).
  if (/Bps$/.test(name) && typeof value === 'number') return `${label}: ${formatPercent(value / 100)}`;
  if (value === null) return `${label}: —`;
  // Events record instants in UTC; staff read Manila time, as in every table.
  if (typeof value === 'string' && ISO_INSTANT.test(value)) return `${label}: ${formatDateTime(value)}`;
  return `${label}: ${typeof value === 'string' ? value : JSON.stringify(value)}`;
}

/**
 * The changed fields of an event as "name: value" lines: money in pesos, rates in percent, times in
 * Manila time, nested changes (a profile update's `changes`) one line per field.
 */
export function changedFieldLines(data: Record<string, unknown>): string[] {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(data)) {
    if (isIdField(name) || value === undefined) continue;
    if (isPlainObject(value)) {
      // A profile update's `changes`: each changed field under its own name.
      for (const [field, fieldValue] of Object.entries(value)) if (fieldValue !== undefined && !isIdField(field)) lines.push(fieldLine(field, fieldValue));
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

/** Newest first, by position in the log (the latest change is what a reviewer looks for). */
export function newestFirst(events: readonly AuditEventAnswer[]): AuditEventAnswer[] {
  return [...events].sort((a, b) => b.position - a.position);
}

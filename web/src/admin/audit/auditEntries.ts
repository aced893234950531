import type { AuditEventAnswer } from '@honeylend/contracts';

/** Ids every event of a stream repeats; the timeline shows what changed, not them. */
const REPEATED_FIELDS = new Set(['memberId', 'loanId', 'withdrawalId', 'adminId']);

/** "LoanStatusChanged" → "Loan status changed" */
export function eventTypeLabel(type: string): string {
  const words = type.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The changed fields of an event as "name: value" lines; money fields in centavos are shown in pesos. */
export function changedFieldLines(data: Record<string, unknown>): string[] {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(data)) {
    if (REPEATED_FIELDS.has(name) || value === undefined) continue;
    if (/Centavos$/.test(name) && typeof value === 'number') {
      lines.push(`${name.replace(/Centavos$/, '')}: ₱${(value / 100).toLocaleString('en-PH', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`);
      continue;
    }
    lines.push(`${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
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

import { isNewer, type Versioned } from '../../shared/versionRule';

export interface Row extends Versioned {
  id: string;
}

/** What a push does to the rows on screen. */
export interface PushOutcome<T> {
  rows: T[];
  /** The pushed document is not on this page: a new item, or one the page may now have to show. */
  unknown: boolean;
}

/**
 * Applies a pushed document to the rows of a table. The admins room carries the borrower-shaped
 * document (no member details, a masked account), so `merge` lays the pushed fields over the row
 * held, keeping what only the admin list answers. An older or repeated push changes nothing.
 */
export function applyPushed<T extends Row, P extends Row>(rows: readonly T[], pushed: P, merge: (held: T, pushed: P) => T): PushOutcome<T> {
  const index = rows.findIndex((row) => row.id === pushed.id);
  if (index === -1) return { rows: rows as T[], unknown: true };
  if (!isNewer(rows[index], pushed)) return { rows: rows as T[], unknown: false };
  const next = rows.slice();
  next[index] = merge(rows[index], pushed);
  return { rows: next, unknown: false };
}

/** Removes a deleted document's row; answers the same array when it was not shown. */
export function withoutRow<T extends Row>(rows: readonly T[], id: string): T[] {
  return rows.some((row) => row.id === id) ? rows.filter((row) => row.id !== id) : (rows as T[]);
}

/** A write's answer (the full admin document) replaces its row unless a push already brought a newer one. */
export function replaceRow<T extends Row>(rows: readonly T[], answer: T): T[] {
  return rows.map((row) => (row.id === answer.id && !(row.version > answer.version) ? answer : row));
}

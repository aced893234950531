/** One field of a folded state, by its path ("profile.fullName", "withdrawals.<id>.status"). */
export interface StateField {
  path: string;
  value: string;
  /** Not what it was one revision earlier (or new). */
  changed: boolean;
}

function flatten(value: unknown, path: string, into: Map<string, string>): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0 && path) into.set(path, '{}');
    for (const [key, item] of entries) flatten(item, path ? `${path}.${key}` : key, into);
    return;
  }
  into.set(path || '(state)', value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value));
}

/**
 * The state as rows of fields, each marked when the event at this revision changed it (compared
 * with the state one revision earlier); fields the event removed are listed as removed.
 */
export function stateFields(state: unknown, previous: unknown): StateField[] {
  const now = new Map<string, string>();
  const before = new Map<string, string>();
  flatten(state, '', now);
  if (previous !== null && previous !== undefined) flatten(previous, '', before);
  const fields = [...now].map(([path, value]) => ({ path, value, changed: before.get(path) !== value }));
  const paths = [...now.keys()];
  // An empty object that filled up is not a removed field.
  for (const [path] of before) if (!now.has(path) && !paths.some((kept) => kept.startsWith(`${path}.`))) fields.push({ path, value: '(removed)', changed: true });
  return fields;
}

/** PromQL's words that are not metric names: aggregation keywords, modifiers, set operators. */
const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset', 'inf', 'nan']);

/**
 * The metric names a PromQL expression reads. Strings, label matchers `{…}`, ranges `[…]` and the
 * label lists of `by (…)` / `without (…)`, numbers and durations are set aside first; then every identifier not followed
 * by `(` (a function or aggregation) and not a keyword or number is a metric.
 */
export function metricsQueriedBy(expression: string): string[] {
  const bare = expression
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    // Numbers and durations (0.99, 1e3, 5m).
    .replace(/\b\d[\w.]*/g, ' ');
  const names = new Set<string>();
  for (const match of bare.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)) {
    const after = bare.slice(match.index + match[0].length).trimStart();
    if (after.startsWith('(') || KEYWORDS.has(match[0].toLowerCase())) continue;
    names.add(match[0]);
  }
  return [...names];
}

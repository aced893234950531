import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

// axe-core's browser build, evaluated in the page through the DevTools protocol (the app's
// Content-Security-Policy refuses inline scripts, so it cannot be added as a <script>).
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.0/2.1 A and AA, and axe's best practices (issue 20). */
const RULE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

interface AxeResult {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/**
 * The serious and critical axe-core violations on the page as it is now (a dialog open, say),
 * one line each: rule, what it asks, and the first offending elements.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (!loaded) await page.evaluate(axeSource);
  const violations = await page.evaluate<AxeResult[]>(
    `window.axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(RULE_TAGS)} }, resultTypes: ['violations'] }).then((results) => results.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) })))`,
  );
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.impact} ${violation.id} (${violation.help}): ${violation.nodes
          .slice(0, 4)
          .map((node) => `${JSON.stringify(node.target)} ${node.failureSummary?.split('\n').slice(1, 2).join('') ?? ''}`)
          .join(' | ')}${violation.nodes.length > 4 ? ` (+${violation.nodes.length - 4} more)` : ''}`,
    );
}

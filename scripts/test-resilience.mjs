// The reliability and security suite (issue 9). `npm run test:resilience` runs every check at the
// counts CI uses; `-- --full` at the counts the issue names. Ends with the table of figures the
// checks reported (the README's "Reliability and security" table is copied from a --full run).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const full = args.includes('--full');
const passThrough = args.filter((arg) => arg !== '--full');
const figuresFile = join(mkdtempSync(join(tmpdir(), 'honeylend-resilience-')), 'figures.jsonl');

const result = spawnSync('npx', ['vitest', 'run', '--root', 'resilience', ...passThrough], {
  stdio: 'inherit',
  env: { ...process.env, RESILIENCE_FULL: full ? '1' : '0', RESILIENCE_FIGURES_FILE: figuresFile },
});

const figures = existsSync(figuresFile)
  ? readFileSync(figuresFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  : [];
process.stdout.write(`\nResilience figures (${full ? 'full counts' : 'CI counts'}):\n`);
figures.sort((a, b) => parseInt(a.check, 10) - parseInt(b.check, 10));
for (const figure of figures) {
  process.stdout.write(`  ${figure.check} — ${figure.name}: ${figure.value}${figure.target ? `  (target ${figure.target})` : ''}\n`);
}
process.exit(result.status ?? 1);

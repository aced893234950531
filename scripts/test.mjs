// Runs every test suite of the monorepo and ends with one plain summary line ("N passed, N failed, N skipped"),
// which CI reads. Exits non-zero when anything fails, including the build and the lint (typechecks, ESLint, Prettier, import rules).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const passThrough = process.argv.slice(2);
const reports = mkdtempSync(join(tmpdir(), 'honeylend-tests-'));
const steps = [
  { name: 'build', cmd: 'npm', args: ['run', 'build'] },
  // The lint (typechecks, ESLint, Prettier, import rules: about 6 minutes, CPU-bound) runs beside the
  // server tests, which wait on Redis and PostgreSQL more than they compute: the whole run stays near
  // 30 minutes on two cores instead of adding the lint's minutes to it. Its output follows theirs.
  { name: 'lint', cmd: 'npm', args: ['run', 'lint'], beside: true },
  { name: 'server tests', cmd: 'npx', args: ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${join(reports, 'server.json')}`, ...passThrough], report: 'server.json' },
  { name: 'web tests', cmd: 'npx', args: ['vitest', 'run', '--root', 'web', '--reporter=default', '--reporter=json', `--outputFile.json=${join(reports, 'web.json')}`], report: 'web.json' },
  { name: 'browser tests', cmd: 'npx', args: ['vitest', 'run', '--root', 'e2e', '--reporter=default', '--reporter=json', `--outputFile.json=${join(reports, 'e2e.json')}`], report: 'e2e.json' },
  // The reliability and security suite at CI counts (npm run test:resilience -- --full for the counts).
  { name: 'resilience checks', cmd: 'node', args: ['scripts/test-resilience.mjs', '--reporter=default', '--reporter=json', `--outputFile.json=${join(reports, 'resilience.json')}`], report: 'resilience.json' },
];

let passed = 0;
let failed = 0;
let skipped = 0;
let broken = false;
/** A step started beside the next one: its exit, and where its output went. */
let besideStep = null;

async function finishBeside(alongside) {
  if (!besideStep) return;
  const { step, outputFile, exited } = besideStep;
  besideStep = null;
  const status = await exited;
  process.stdout.write(`\n=== ${step.name} (ran beside ${alongside}) ===\n${readFileSync(outputFile, 'utf8')}`);
  if (status !== 0) {
    process.stdout.write(`${step.name} failed (exit ${status})\n`);
    broken = true;
  }
}

for (const step of steps) {
  if (step.beside) {
    const outputFile = join(reports, `${step.name}.log`);
    const output = openSync(outputFile, 'w');
    const child = spawn(step.cmd, step.args, { stdio: ['ignore', output, output] });
    besideStep = { step, outputFile, exited: new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1))) };
    continue;
  }
  process.stdout.write(`\n=== ${step.name} ===\n`);
  const result = spawnSync(step.cmd, step.args, { stdio: 'inherit' });
  if (step.report) {
    try {
      const report = JSON.parse(readFileSync(join(reports, step.report), 'utf8'));
      passed += report.numPassedTests;
      failed += report.numFailedTests;
      skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    } catch {
      process.stdout.write(`${step.name}: no report was written\n`);
      broken = true;
    }
  }
  if (result.status !== 0) {
    process.stdout.write(`${step.name} failed (exit ${result.status})\n`);
    broken = true;
    if (!step.report) break;
  }
  // A step started beside this one ends with it.
  await finishBeside(`the ${step.name}`);
}
await finishBeside('the steps before');
process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(broken || failed > 0 ? 1 : 0);

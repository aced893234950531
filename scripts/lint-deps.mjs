// The import rules (.dependency-cruiser.cjs), and one rule dependency-cruiser cannot state: no two
// folders of command-api/src import each other both ways. A folder and its own subfolders are one
// capability and may (members/ and members/privacy/); any other pair may import one way only.
// Exits non-zero on any violation, naming the imports on both sides.
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';

const PACKAGES = ['contracts', 'observability', 'eventstore', 'projections', 'workers', 'command-api', 'web', 'cli', 'bench', 'e2e', 'resilience'];
const cruised = spawnSync('npx', ['depcruise', ...PACKAGES.map((name) => `${name}/src`), '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
  encoding: 'utf8',
  maxBuffer: 256 * 1024 * 1024,
});
if (!cruised.stdout) {
  process.stderr.write(cruised.stderr);
  process.exit(2);
}
const result = JSON.parse(cruised.stdout);

let failed = false;
for (const violation of result.summary.violations) {
  failed = true;
  process.stdout.write(`error ${violation.rule.name}: ${violation.from} → ${violation.to}\n`);
}

const API = 'command-api/src/';
const imports = new Map(); // "from folder\0to folder" → ["file → file", …]
for (const module of result.modules) {
  if (!module.source.startsWith(API)) continue;
  const from = dirname(module.source);
  for (const dependency of module.dependencies) {
    if (!dependency.resolved.startsWith(API)) continue;
    const to = dirname(dependency.resolved);
    if (from === to || from.startsWith(`${to}/`) || to.startsWith(`${from}/`)) continue;
    const key = `${from}\0${to}`;
    imports.set(key, [...(imports.get(key) ?? []), `${module.source} → ${dependency.resolved}`]);
  }
}
for (const [key, lines] of imports) {
  const [from, to] = key.split('\0');
  if (from < to && imports.has(`${to}\0${from}`)) {
    failed = true;
    process.stdout.write(`error folders-both-ways: ${from} ↔ ${to}\n  ${lines.join('\n  ')}\n  ${imports.get(`${to}\0${from}`).join('\n  ')}\n`);
  }
}

const { totalCruised, totalDependenciesCruised } = result.summary;
process.stdout.write(failed ? 'import rules broken\n' : `import rules hold (${totalCruised} modules, ${totalDependenciesCruised} imports)\n`);
process.exit(failed ? 1 : 0);

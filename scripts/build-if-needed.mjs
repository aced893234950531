// `npm start` builds only when a source is newer than its build output, so a second start is instant.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(dir, skip = new Set(['node_modules', 'dist'])) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skip.has(entry.name)) continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path, skip) : statSync(path).mtimeMs);
  }
  return newest;
}

const needsBuild = (sources, output) => !existsSync(output) || newestMtime(sources) > statSync(output).mtimeMs;

const servers = ['contracts', 'eventstore', 'projections', 'workers', 'command-api', 'cli'];
if (servers.some((ws) => needsBuild(join(ws, 'src'), join(ws, 'dist', 'index.js')))) {
  execSync('npx tsc -b tsconfig.build.json', { stdio: 'inherit' });
}
if (needsBuild('web/src', 'web/dist/index.html') || needsBuild('contracts/src', 'web/dist/index.html')) {
  execSync('npm run build -w @honeylend/web', { stdio: 'inherit' });
}

// Build check (issue 6): the JavaScript a borrower's first visit downloads — the entry chunk and
// every chunk it imports statically — must stay at or under 250 KB gzipped, and must hold no admin
// console code (that is a lazy chunk). Reads Vite's manifest, prints the figure, exits 1 when over.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const LIMIT_BYTES = 250 * 1024;
const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifestPath = join(dist, '.vite', 'manifest.json');
const ADMIN_SOURCES = /(^|\/)src\/admin\/|node_modules\/(antd|@ant-design)\//;

if (!existsSync(manifestPath)) {
  console.error(`bundle check: ${manifestPath} is missing; run vite build (with build.manifest) first`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
if (entries.length !== 1) {
  console.error(`bundle check: expected one entry chunk, found ${entries.length}`);
  process.exit(1);
}

// The entry and its static imports, transitively: what the first load fetches before any lazy route.
const firstLoad = new Map();
const visit = (key) => {
  if (firstLoad.has(key)) return;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`bundle check: the manifest names ${key} but has no entry for it`);
  firstLoad.set(key, chunk);
  for (const imported of chunk.imports ?? []) visit(imported);
};
visit(entries[0][0]);

let total = 0;
const lines = [];
const adminChunks = [];
for (const [key, chunk] of firstLoad) {
  const gzipped = gzipSync(readFileSync(join(dist, chunk.file))).length;
  total += gzipped;
  lines.push(`  ${chunk.file}  ${(gzipped / 1024).toFixed(1)} KB gzipped`);
  if (ADMIN_SOURCES.test(key) || ADMIN_SOURCES.test(chunk.src ?? '')) adminChunks.push(key);
}

const figure = `${(total / 1024).toFixed(1)} KB`;
console.log(`borrower entry JS: ${figure} gzipped (limit ${LIMIT_BYTES / 1024} KB), ${firstLoad.size} chunk(s) on first load`);
for (const line of lines) console.log(line);
// The manifest only serves this check; it is not shipped with the app.
rmSync(join(dist, '.vite'), { recursive: true, force: true });

if (adminChunks.length > 0) {
  console.error(`bundle check failed: the first load includes admin code (${adminChunks.join(', ')}); load it lazily`);
  process.exit(1);
}
if (total > LIMIT_BYTES) {
  console.error(`bundle check failed: ${figure} gzipped is over the ${LIMIT_BYTES / 1024} KB limit`);
  process.exit(1);
}

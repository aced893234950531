// Build check (issues 6 and 20): the JavaScript each first visit downloads, gzipped, from Vite's
// manifest. Prints the figures and exits 1 when a budget is broken.
//  - landing (index.html, prerendered at build time): its own script and its static imports; no
//    React, no admin console code, no socket client, no validation library, no signed-in screens
//    (the app, app.html, loads when sign-in or registration opens, or for a stored session);
//  - signed-in dashboard (dashboard.html at /loan-app, the app's script over a prerendered frame):
//    the app's entry plus the dashboard chunk and the live-updates chunk (socket client, member
//    stores), with everything they import statically; no validation library.
// It also checks that index.html and dashboard.html hold their prerendered pages and that the
// service worker precaches the landing's scripts. The manifest and the (hidden) source maps only serve this check and are
// removed after it.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const KB = 1024;
// Issue 20: landing first load at most 70 KB (React 19's react-dom alone is 68.6 KB gzipped, which
// is why the landing is static HTML with a script of its own).
const LANDING_LIMIT = 70 * KB;
// Issue 20: the signed-in dashboard (the app entry, the dashboard chunk and the live-updates chunk)
// at most 150 KB. The wallet and profile screens are chunks of their own, fetched after it.
const DASHBOARD_LIMIT = 150 * KB;
const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifestPath = join(dist, '.vite', 'manifest.json');
const ADMIN_SOURCES = /(^|\/)src\/(admin|audit)\/|node_modules\/(antd|@ant-design|@antv)\//;
const NOT_ON_LANDING = [
  { what: 'React', test: /node_modules\/(react|react-dom|react-router|react-router-dom|scheduler)\// },
  { what: 'admin console or auditor code', test: ADMIN_SOURCES },
  { what: 'the socket client', test: /socket\.io|engine\.io/ },
  { what: 'the validation library', test: /node_modules\/zod\// },
  { what: 'signed-in screens', test: /src\/borrower\/(pages\/(Dashboard|Wallet|Profile|Loan)Page|signedInScreens)/ },
];

if (!existsSync(manifestPath)) {
  console.error(`bundle check: ${manifestPath} is missing; run vite build (with build.manifest) first`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const entries = Object.entries(manifest)
  .filter(([, chunk]) => chunk.isEntry)
  .map(([key]) => key)
  .sort();
if (entries.join() !== 'app.html,dashboard.html,index.html') {
  console.error(`bundle check: expected the entries app.html, dashboard.html and index.html, found ${entries.join(', ') || 'none'}`);
  process.exit(1);
}
const landingKey = 'index.html';
const dashboardKey = 'dashboard.html';

/** The chunks `keys` name and their static imports, transitively. */
function staticClosure(keys) {
  const found = new Map();
  const visit = (key) => {
    if (found.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`bundle check: the manifest names ${key} but has no entry for it`);
    found.set(key, chunk);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return found;
}

const gzippedSize = new Map();
function sizeOf(chunks) {
  let total = 0;
  for (const chunk of chunks.values()) {
    if (!gzippedSize.has(chunk.file)) gzippedSize.set(chunk.file, gzipSync(readFileSync(join(dist, chunk.file))).length);
    total += gzippedSize.get(chunk.file);
  }
  return total;
}

/** Which source files a chunk was built from: the source map's list when present, else its manifest keys. */
function sourcesOf(key, chunk) {
  const mapPath = join(dist, `${chunk.file}.map`);
  const sources = existsSync(mapPath) ? JSON.parse(readFileSync(mapPath, 'utf8')).sources : [];
  return [key, chunk.src ?? '', ...sources];
}

const failures = [];
const report = (name, chunks, limit) => {
  const total = sizeOf(chunks);
  console.log(`${name} JS: ${(total / KB).toFixed(1)} KB gzipped (limit ${limit / KB} KB), ${chunks.size} chunk(s)`);
  for (const chunk of chunks.values()) console.log(`  ${chunk.file}  ${(gzippedSize.get(chunk.file) / KB).toFixed(1)} KB gzipped`);
  if (total > limit) failures.push(`${name}: ${(total / KB).toFixed(1)} KB gzipped is over the ${limit / KB} KB limit`);
};

const landing = staticClosure([landingKey]);
report('landing first load', landing, LANDING_LIMIT);
for (const [key, chunk] of landing) {
  const sources = sourcesOf(key, chunk);
  for (const rule of NOT_ON_LANDING) {
    const offending = sources.find((source) => rule.test.test(source));
    if (offending) failures.push(`the landing's first load includes ${rule.what} (${chunk.file}: ${offending}); load it lazily`);
  }
}

const lazyKey = (source) => Object.keys(manifest).find((key) => key.endsWith(source));
const signedInKeys = ['src/borrower/signedInScreens.ts', 'src/borrower/stores/liveUpdates.ts'].map((source) => {
  const key = lazyKey(source);
  if (!key) failures.push(`the manifest has no lazy chunk for ${source}`);
  return key;
});
if (signedInKeys.every(Boolean)) {
  const dashboard = staticClosure([dashboardKey, ...signedInKeys]);
  report('signed-in dashboard first load', dashboard, DASHBOARD_LIMIT);
  // Nor zod on the dashboard's first load: evaluating its schemas was one of the dashboard's long
  // tasks on a phone (issue 20's total blocking time); the forms using it come with their chunks.
  for (const [key, chunk] of dashboard) {
    const offending = sourcesOf(key, chunk).find((source) => /node_modules\/zod\//.test(source));
    if (offending) failures.push(`the signed-in dashboard's first load includes the validation library (${chunk.file}: ${offending}); import it with the form that needs it`);
  }
}

// The landing page is in index.html itself (a failed prerender would ship an empty page), and
// the service worker precaches what it loads (its glob patterns name chunks).
const landingHtml = readFileSync(join(dist, 'index.html'), 'utf8');
for (const text of ['data-landing="static"', 'Effortless Borrowing, Smooth as Honey!', 'aria-label="Pause banners"', '<template id="landing-menu">']) {
  if (!landingHtml.includes(text)) failures.push(`index.html lacks the prerendered landing page (${text})`);
}
// The dashboard's frame is in dashboard.html, drawn for no member in particular.
const dashboardHtml = readFileSync(join(dist, 'dashboard.html'), 'utf8');
for (const text of ['data-prerendered="dashboard"', 'id="page-title">Dashboard</h1>', 'Loading...', 'Fast cash loans']) {
  if (!dashboardHtml.includes(text)) failures.push(`dashboard.html lacks the prerendered dashboard frame (${text})`);
}
const serviceWorker = existsSync(join(dist, 'sw.js')) ? readFileSync(join(dist, 'sw.js'), 'utf8') : '';
for (const chunk of landing.values()) {
  for (const file of [chunk.file, ...(chunk.css ?? [])]) if (!serviceWorker.includes(`"${file}"`)) failures.push(`the service worker does not precache the landing's ${file}`);
}

rmSync(join(dist, '.vite'), { recursive: true, force: true });
for (const file of readdirSync(join(dist, 'assets'))) if (file.endsWith('.map')) rmSync(join(dist, 'assets', file));
if (failures.length > 0) {
  for (const failure of failures) console.error(`bundle check failed: ${failure}`);
  process.exit(1);
}

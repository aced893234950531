import { existsSync } from 'node:fs';
import { paths } from './paths.js';

/** The tests start the compiled CLI serving the built web app; both builds must exist (`npm run build`). */
export default function checkBuilds(): void {
  const missing = [paths.lendingCli, paths.cliBuild, paths.webIndex].filter((path) => !existsSync(path));
  if (missing.length > 0) throw new Error(`The browser tests need the built system; run \`npm run build\` first (missing: ${missing.join(', ')})`);
  if (!existsSync(paths.chromium)) throw new Error(`Chromium is not installed at ${paths.chromium} (Debian: apt-get install chromium; .ci/run installs it)`);
}

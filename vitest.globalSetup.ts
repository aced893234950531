import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * The process tests start the compiled `lending` CLI serving the built web app, so both builds
 * must exist (tsc -b is incremental: fast when nothing changed; `npm test` builds the web first).
 */
export default function buildServers(): void {
  execSync('npx tsc -b tsconfig.build.json', { stdio: 'inherit' });
  if (!existsSync('web/dist/index.html')) execSync('npm run build -w @honeylend/web', { stdio: 'inherit' });
}

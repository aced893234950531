import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The process-level checks (crashes, outages) start the compiled `lending` CLI, so the TypeScript
 * build must be current (tsc -b is incremental: quick when nothing changed).
 */
export default function buildServers(): void {
  execSync('npx tsc -b tsconfig.build.json', { stdio: 'inherit', cwd: fileURLToPath(new URL('../../../', import.meta.url)) });
}

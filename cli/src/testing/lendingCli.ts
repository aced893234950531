import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const LENDING = fileURLToPath(new URL('../../bin/lending.js', import.meta.url));

export interface LendingRun {
  child: ChildProcess;
  output(): { stdout: string; stderr: string };
  /** Resolves with the exit code (null when a signal ended it). */
  exited: Promise<number | null>;
}

/** Starts the built `lending` command with only PATH (and HOME) and `env` as its environment. */
export function lending(args: string[], env: Record<string, string>): LendingRun {
  const base: Record<string, string> = {};
  for (const key of ['PATH', 'HOME']) if (process.env[key] !== undefined) base[key] = process.env[key];
  const child = spawn(process.execPath, [LENDING, ...args], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => ({ stdout, stderr }), exited };
}

/** Runs `lending …` to its end (killed after `timeoutMs`) and answers its exit code and output. */
export async function runLending(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = lending(args, env);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs);
  const code = await run.exited;
  clearTimeout(timer);
  return { code, ...run.output() };
}

import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const LENDING_BIN = fileURLToPath(new URL('../../../cli/bin/lending.js', import.meta.url));

export type LendingRole = 'api' | 'projections' | 'workers' | 'replay';

export interface LendingProcess {
  role: LendingRole;
  pid: number;
  /** Resolves when the process has exited, with its code or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  isRunning(): boolean;
  /** The last ~200 KB the process wrote (stdout and stderr), for failure messages. */
  output(): string;
  /** SIGKILL: no shutdown hook runs, exactly like a machine losing the process. */
  kill9(): Promise<void>;
  /** SIGTERM (the graceful stop every role promises within 5 s), SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** Every process started here and not yet ended: the checks end them in `stopAllLendingProcesses`. */
const running = new Set<LendingProcess>();

/** What the child inherits: only what node needs, so the machine's own configuration never leaks in. */
function childEnvironment(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ']) if (process.env[key] !== undefined) base[key] = process.env[key];
  return { ...base, ...env };
}

/** Starts `node cli/bin/lending.js <role>` (the compiled CLI) with exactly `env` as its configuration. */
export function spawnLending(role: LendingRole, env: Record<string, string>): LendingProcess {
  const child: ChildProcess = spawn(process.execPath, [LENDING_BIN, role], { cwd: REPO_ROOT, env: childEnvironment(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (chunk: Buffer) => {
    log += chunk.toString();
    if (log.length > 400_000) log = log.slice(-200_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const isRunning = () => child.exitCode === null && child.signalCode === null;
  const handle: LendingProcess = {
    role,
    pid: child.pid!,
    exited,
    isRunning,
    output: () => log,
    async kill9() {
      running.delete(handle);
      if (isRunning()) child.kill('SIGKILL');
      await exited;
    },
    async stop(graceMs = 7_000) {
      running.delete(handle);
      if (!isRunning()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  void exited.then(() => running.delete(handle));
  running.add(handle);
  return handle;
}

/** Ends every lending process this test file started and has not ended yet. */
export async function stopAllLendingProcesses(): Promise<void> {
  await Promise.all([...running].map((child) => child.stop()));
}

/** Runs a role to completion (e.g. `replay`) and answers its output; fails on a non-zero exit. */
export async function runLendingToEnd(role: LendingRole, env: Record<string, string>, timeoutMs: number): Promise<string> {
  const child = spawnLending(role, env);
  const timer = setTimeout(() => void child.kill9(), timeoutMs);
  const { code, signal } = await child.exited;
  clearTimeout(timer);
  if (code !== 0) throw new Error(`lending ${role} ended with ${code ?? signal}:\n${child.output().slice(-4_000)}`);
  return child.output();
}

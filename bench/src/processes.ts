import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sleep, until } from './stats.js';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LENDING = join(REPO_ROOT, 'cli/bin/lending.js');

export interface Child {
  name: string;
  pid: number;
  process: ChildProcess;
  /** What the process wrote so far, stdout and stderr as its log file holds them (read for `lending replay`'s and `lending audit verify`'s summary lines). */
  stdout(): string;
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
  /** Resident set size in bytes (Linux /proc), or null where unavailable. */
  rssBytes(): number | null;
  /** CPU time (user + system) the process has used so far, in seconds (Linux /proc), or null where unavailable. */
  cpuSeconds(): number | null;
}

const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU seconds a process has used (utime + stime of /proc/<pid>/stat, in clock ticks of 1/100 s on
 * Linux): on a shared machine the time a request waits for a CPU says little, the CPU it costs does.
 */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis are plain.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** The processes this bench started and has not stopped yet: stopped on the way out, whatever happens. */
const running = new Set<Child>();

export interface SpawnOptions {
  env: Record<string, string>;
  logDir: string;
  /** Directory for `--cpu-prof` output; no profiling when absent. */
  cpuProfDir?: string;
  args?: string[];
}

/** The environment the roles see: only what the bench sets, plus what node itself needs. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ']) if (process.env[key] !== undefined) base[key] = process.env[key];
  return { ...base, ...env };
}

export function spawnNode(name: string, script: string, scriptArgs: string[], options: SpawnOptions): Child {
  const nodeArgs = options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`, `--cpu-prof-name=${name}.cpuprofile`] : [];
  // The child writes its output straight into its log file, as a container runtime takes it off a
  // process: the bench process, which is also the load generator, never handles the lines. Piped
  // through it, 8,000 request lines a second took the load generator's CPU and made logging on look
  // 15–20 % dearer than it is (issue 18's comparison).
  const logPath = join(options.logDir, `${name}.log`);
  const logFd = openSync(logPath, 'a');
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [...nodeArgs, script, ...scriptArgs], {
      cwd: REPO_ROOT,
      env: childEnv(options.env),
      stdio: ['ignore', logFd, logFd],
    });
  } finally {
    closeSync(logFd); // the child has its own copy
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const handle: Child = {
    name,
    pid: child.pid!,
    process: child,
    stdout: () => {
      try {
        const text = readFileSync(logPath, 'utf8');
        return text.length > 1_000_000 ? text.slice(-500_000) : text;
      } catch {
        return '';
      }
    },
    exited,
    async stop(graceMs = 7_000) {
      running.delete(handle);
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
    cpuSeconds: () => processCpuSeconds(child.pid!),
    rssBytes() {
      try {
        const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        return match ? Number(match[1]) * 1024 : null;
      } catch {
        return null;
      }
    },
  };
  running.add(handle);
  return handle;
}

export function spawnLending(role: 'start' | 'api' | 'projections' | 'workers' | 'replay' | 'audit', name: string, options: SpawnOptions): Child {
  return spawnNode(name, LENDING, [role, ...(options.args ?? [])], options);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => child.stop().catch(() => null)));
}

/**
 * Resolves once GET /api/ready answers 200 with no projection lag; fails as soon as any of the
 * system's processes dies (a broken build, a port taken), not at the timeout.
 */
export async function waitReady(baseUrl: string, children: Child[], timeoutMs: number): Promise<void> {
  let dead: Child | null = null;
  for (const child of children) void child.exited.then(() => (dead ??= child));
  const ready = await until(
    `the system to be ready at ${baseUrl}`,
    async () => {
      // A value, not a throw (until() retries on throws): a dead process ends the wait at once.
      if (dead) return false;
      const response = await fetch(`${baseUrl}/api/ready`, { signal: AbortSignal.timeout(2_000) });
      if (response.status !== 200) return undefined;
      const body = (await response.json()) as { projectionLag: number | null };
      return body.projectionLag === 0 ? true : undefined;
    },
    timeoutMs,
    250,
  );
  if (!ready) {
    const child = dead as Child | null;
    throw new Error(`${child?.name} exited while starting (code ${child?.process.exitCode}); see its log`);
  }
}

/** Waits for a process's RSS to stop moving (GC and allocator settle), then answers it. */
export async function settledRss(child: Child, { maxWaitMs = 5_000, everyMs = 500 } = {}): Promise<number | null> {
  let last = child.rssBytes();
  const deadline = Date.now() + maxWaitMs;
  while (Date.now() < deadline) {
    await sleep(everyMs);
    const now = child.rssBytes();
    if (now === null || last === null) return now;
    if (Math.abs(now - last) < 512 * 1024) return now;
    last = now;
  }
  return child.rssBytes();
}

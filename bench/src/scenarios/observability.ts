import { runLoad, type LoadOptions, type LoadResult } from '../load.js';
import { withLoad, type LoadAround } from '../machineLoad.js';
import type { Child } from '../processes.js';
import type { RunningSystem } from '../system.js';
import { profileChange } from './commands.js';

export type ObservabilityMode = 'off' | 'on';

/**
 * What "off" and "on" mean (issue 18's switches, as the roles have them):
 * - off: LOG_LEVEL=silent and no METRICS_PORT (no metrics server, nothing scraped). prom-client's
 *   histograms and counters are still updated in-process: the roles have no switch for that.
 * - on: LOG_LEVEL=info (one pino line per request, to the role's stdout, which the bench writes
 *   to a file) and every role's metrics served on METRICS_PORT and scraped once a second (a
 *   Prometheus scrape interval is usually 15 s: this is the harsher case).
 */
export const OBSERVABILITY_ENV: Record<ObservabilityMode, Record<string, string>> = {
  off: { LOG_LEVEL: 'silent', METRICS_PORT: '' },
  on: { LOG_LEVEL: 'info' },
};

/** One API process's share of a window: its load and the CPU milliseconds (user + system, /proc) it spent per request. */
export interface ProcessWindow {
  load: LoadResult;
  cpuMs: number | null;
}

export type ApiProcess = 'first' | 'second';

export interface ObservabilityRun {
  /** The API process that ran with logging and metrics on: the system's own (first) or the one started beside it (second). */
  onProcess: ApiProcess;
  /** The same read load on both processes at once, half the connections each. */
  read: Record<ObservabilityMode, ProcessWindow>;
  /** The same profile updates on both at once, each process its own half of the members. */
  commands: Record<ObservabilityMode, ProcessWindow>;
  scrapes: number;
  load: LoadAround;
}

export interface ObservabilityResult {
  /** Seconds of unmeasured load before each window. */
  warmupSeconds: number;
  /** In the order run (`sideBySideOrder`). */
  runs: ObservabilityRun[];
  /** 1 − on/off of the requests the two processes answered in the same windows, in percent: the throughput logging and metrics cost. */
  readCostPercent: number;
  commandCostPercent: number;
  /** (on/off − 1) of the CPU per request, in percent: the same cost measured in CPU. */
  readCpuCostPercent: number | null;
  commandCpuCostPercent: number | null;
}

/** Scrapes every role's GET /metrics once a second until stopped; answers how many scrapes succeeded. */
function scrapeEverySecond(ports: number[]): () => Promise<number> {
  let scrapes = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      await Promise.all(
        ports.map(async (port) => {
          const res = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(5_000) }).catch(() => null);
          if (res?.ok) {
            await res.text();
            scrapes++;
          }
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return scrapes;
  };
}

/**
 * Which API process runs with logging and metrics on, run by run: the first, then the second, then
 * mirrored (second, first) for the next cycle, so neither process — nor an order — is favoured.
 */
export function sideBySideOrder(cycles: number): ApiProcess[] {
  if (!Number.isInteger(cycles) || cycles < 1) throw new Error('the comparison needs a whole number of cycles, at least one');
  return Array.from({ length: cycles }, (_, cycle): ApiProcess[] => (cycle % 2 === 0 ? ['first', 'second'] : ['second', 'first'])).flat();
}

/** 1 − Σon/Σoff in percent: what the "on" side lost of the "off" side's figure over the same windows. */
export function costPercent(off: number[], on: number[]): number {
  const sum = (values: number[]) => values.reduce((total, v) => total + v, 0);
  return (1 - sum(on) / sum(off)) * 100;
}

const BOTH: readonly ApiProcess[] = ['first', 'second'];

/** The windows of one kind (reads or commands) of every run, of the process that was in `mode`. */
export function windowsOf(runs: readonly ObservabilityRun[], kind: 'read' | 'commands', mode: ObservabilityMode): ProcessWindow[] {
  return runs.map((run) => run[kind][mode]);
}

/**
 * Issue 18's closing check, side by side: two `lending api` processes on the same system, one with
 * logging and metrics off and one with them on, under the same load at the same moment — half the
 * connections each, reads (`GET /api/user/profile`) and then profile updates (each process its own
 * half of the members, so neither waits on the other's streams). On a shared host whose speed
 * moves by tens of percent from one minute to the next, runs one after the other measured the host;
 * two processes measured together share its every moment, so what differs between them is theirs.
 *
 * Each run restarts the roles (the projections and workers in the first process's mode, the second
 * process in the other) and swaps which process is on (`sideBySideOrder`); every window follows
 * `warmupSeconds` of the same load, unmeasured, since fresh processes first compile their hot paths
 * and grow their young generation. The projections and workers serve both processes, so what they
 * spend on logging and metrics (no line per event; a scrape a second) is not in the difference.
 * Ends by starting the roles again as the other scenarios run them.
 */
export async function observabilityScenario(
  system: RunningSystem,
  {
    readConnections,
    commandConnections,
    durationSeconds,
    cycles,
    warmupSeconds,
    tag,
  }: { readConnections: number; commandConnections: number; durationSeconds: number; cycles: number; warmupSeconds: number; tag: string },
): Promise<ObservabilityResult> {
  const runs: ObservabilityRun[] = [];
  const half = (connections: number) => Math.max(1, Math.floor(connections / 2));
  for (const onProcess of sideBySideOrder(cycles)) {
    const modeOf = (process: ApiProcess): ObservabilityMode => (process === onProcess ? 'on' : 'off');
    await system.restartRoles(OBSERVABILITY_ENV[modeOf('first')]);
    const beside = await system.startExtraApis(1, { env: OBSERVABILITY_ENV[modeOf('second')], name: `api-beside-run${runs.length + 1}` });
    try {
      const processes: Record<ApiProcess, { child: Child; url: string; share: number }> = {
        first: { child: system.api, url: system.baseUrl, share: 0 },
        second: { child: beside.children[0], url: beside.urls[0], share: 1 },
      };
      /** Load on one process with its half of the connections, each request built for its next member (its own half of them) in turn. */
      const loadOn = (process: ApiProcess, seconds: number, { connections, timeoutSeconds }: { connections: number; timeoutSeconds?: number }, request: (token: string, i: number) => ReturnType<LoadOptions['next']>) => {
        const tokens = system.tokens.filter((_, i) => i % 2 === processes[process].share);
        let k = 0;
        return runLoad({
          url: processes[process].url,
          connections: half(connections),
          durationSeconds: seconds,
          ...(timeoutSeconds ? { timeoutSeconds } : {}),
          next: () => {
            const i = k++;
            return request(tokens[i % tokens.length], i);
          },
        });
      };
      const reads = (process: ApiProcess, seconds: number) =>
        loadOn(process, seconds, { connections: readConnections }, (token) => ({ method: 'GET', path: '/api/user/profile', headers: { authorization: `Bearer ${token}` } }));
      // Every body new (a re-save of the same address records nothing and costs less).
      const updates = (process: ApiProcess, seconds: number, phase: string) =>
        loadOn(process, seconds, { connections: commandConnections, timeoutSeconds: 30 }, (token, i) => ({
          method: 'PUT',
          path: '/api/user/profile',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: profileChange(`${tag}-${runs.length}-${phase}-${processes[process].share}-${i}`),
        }));
      /** Both processes under `load` at once, unmeasured for `warmupSeconds` and then for the window: each one's load and CPU per request, by its mode. */
      const sideBySide = async (load: (process: ApiProcess, seconds: number, phase: string) => Promise<LoadResult>): Promise<Record<ObservabilityMode, ProcessWindow>> => {
        if (warmupSeconds > 0) await Promise.all(BOTH.map((process) => load(process, warmupSeconds, 'warm')));
        const before = BOTH.map((process) => processes[process].child.cpuSeconds());
        const loads = await Promise.all(BOTH.map((process) => load(process, durationSeconds, 'window')));
        const windows = BOTH.map((process, i): [ObservabilityMode, ProcessWindow] => {
          const after = processes[process].child.cpuSeconds();
          const start = before[i] ?? null;
          const spent = start === null || after === null ? null : after - start;
          const { total } = loads[i];
          return [modeOf(process), { load: loads[i], cpuMs: spent === null || total === 0 ? null : (spent * 1000) / total }];
        });
        return Object.fromEntries(windows) as Record<ObservabilityMode, ProcessWindow>;
      };
      const stopScraping = scrapeEverySecond([...system.children, ...beside.children].flatMap((child) => system.metricsPortOf(child) ?? []));
      const { value, load } = await withLoad(async () => ({ read: await sideBySide(reads), commands: await sideBySide(updates) }));
      runs.push({ onProcess, ...value, scrapes: await stopScraping(), load });
    } finally {
      await beside.stop();
    }
  }
  await system.restartRoles({});
  const throughputCost = (kind: 'read' | 'commands') => {
    const rate = (mode: ObservabilityMode) => windowsOf(runs, kind, mode).map((window) => window.load.requestsPerSecond);
    return costPercent(rate('off'), rate('on'));
  };
  const cpuCost = (kind: 'read' | 'commands') => {
    const off = windowsOf(runs, kind, 'off').map((window) => window.cpuMs);
    const on = windowsOf(runs, kind, 'on').map((window) => window.cpuMs);
    if ([...off, ...on].some((value) => value === null)) return null;
    return -costPercent(off as number[], on as number[]);
  };
  return {
    warmupSeconds,
    runs,
    readCostPercent: throughputCost('read'),
    commandCostPercent: throughputCost('commands'),
    readCpuCostPercent: cpuCost('read'),
    commandCpuCostPercent: cpuCost('commands'),
  };
}

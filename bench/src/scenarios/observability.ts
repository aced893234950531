import type { LoadResult } from '../load.js';
import { withLoad, type LoadAround } from '../machineLoad.js';
import type { Child } from '../processes.js';
import type { RunningSystem } from '../system.js';
import { commandsScenario } from './commands.js';
import { readScenario } from './read.js';

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

export interface ObservabilityRun {
  mode: ObservabilityMode;
  read: LoadResult;
  commands: LoadResult;
  /**
   * CPU milliseconds (user + system, /proc) per request, of the API for the reads and of every role
   * for the commands: what a request costs, whatever share of the host the processes got.
   */
  readCpuMs: number | null;
  commandCpuMs: number | null;
  /** The commands' CPU milliseconds per command, by role (api, projections, workers): which role pays. */
  commandCpuMsByRole: Record<string, number | null>;
  scrapes: number;
  load: LoadAround;
}

export interface ObservabilityResult {
  /** Seconds of unmeasured load before each window. */
  warmupSeconds: number;
  /** In the order run (`alternation`: off, on, on, off, then mirrored), so a drift of the machine's load cancels out. */
  runs: ObservabilityRun[];
  /** 1 − on/off of the mean req/s of each mode, in percent: the throughput logging and metrics cost. */
  readCostPercent: number;
  commandCostPercent: number;
  /** (on/off − 1) of the mean CPU per request, in percent: the same cost measured in CPU, steadier on a busy host. */
  readCpuCostPercent: number | null;
  commandCpuCostPercent: number | null;
}

/** A role's name from its process's (`pg-api-gen3` → api). */
function roleOf(child: Child): string {
  return /(api|projections|workers)/.exec(child.name)?.[1] ?? child.name;
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
 * The order of the modes: off, on, on, off, then on, off, off, on, and so on for `cycles` — each
 * cycle cancels a drift of the host that is linear over it, and the mirrored next one a drift that
 * is not, while every mode runs equally often in each position.
 */
export function alternation(cycles: number): ObservabilityMode[] {
  if (!Number.isInteger(cycles) || cycles < 1) throw new Error('the alternation needs a whole number of cycles, at least one');
  return Array.from({ length: cycles }, (_, cycle): ObservabilityMode[] => (cycle % 2 === 0 ? ['off', 'on', 'on', 'off'] : ['on', 'off', 'off', 'on'])).flat();
}

export function costPercent(off: number[], on: number[]): number {
  const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
  return (1 - mean(on) / mean(off)) * 100;
}

/**
 * Issue 18's closing check: the read (`GET /api/user/profile`) and command (profile updates, closed
 * loop) scenarios with logging and metrics off and on, on the same system restarted between modes
 * (same data, same ports), in the order `alternation(cycles)`; then starts the roles again as the other
 * scenarios run them (logs at warn, metrics served).
 *
 * Each window is preceded by `warmupSeconds` of the same load that is not measured: the roles have
 * just been restarted, and a fresh process's first seconds — V8 compiling the hot paths, the young
 * generation growing from its initial size under the allocation rate — are not what a running API
 * does, and they differ from run to run more than logging's cost does.
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
  for (const mode of alternation(cycles)) {
    await system.restartRoles(OBSERVABILITY_ENV[mode]);
    const stopScraping = mode === 'on' ? scrapeEverySecond([...system.metricsPorts]) : async () => 0;
    const cpu = (children: Child[]) => {
      const seconds = children.map((child) => child.cpuSeconds());
      return seconds.some((value) => value === null) ? null : seconds.reduce((sum: number, value) => sum + value!, 0);
    };
    const perRequest = (before: number | null, after: number | null, requests: number) => (before === null || after === null || requests === 0 ? null : ((after - before) * 1000) / requests);
    const run = `${tag}-${mode}-${runs.length}`;
    const read = () => readScenario(system, '/api/user/profile', { connections: readConnections, durationSeconds });
    const commands = (seconds: number, name: string) => commandsScenario(system, { connections: commandConnections, durationSeconds: seconds, tag: name, loans: false });
    if (warmupSeconds > 0) await readScenario(system, '/api/user/profile', { connections: readConnections, durationSeconds: warmupSeconds });
    const { value, load } = await withLoad(async () => {
      const apiBefore = cpu([system.api]);
      const readResult = await read();
      const readCpuMs = perRequest(apiBefore, cpu([system.api]), readResult.total);
      if (warmupSeconds > 0) await commands(warmupSeconds, `${run}-warm`);
      const allBefore = cpu(system.children);
      const roleBefore = system.children.map((child) => cpu([child]));
      const commandsResult = await commands(durationSeconds, run);
      const commandCpuMsByRole = Object.fromEntries(system.children.map((child, i) => [roleOf(child), perRequest(roleBefore[i]!, cpu([child]), commandsResult.total)]));
      return { read: readResult, commands: commandsResult, readCpuMs, commandCpuMs: perRequest(allBefore, cpu(system.children), commandsResult.total), commandCpuMsByRole };
    });
    runs.push({ mode, ...value, scrapes: await stopScraping(), load });
  }
  await system.restartRoles({});
  const rate = (mode: ObservabilityMode, pick: (run: ObservabilityRun) => LoadResult) => runs.filter((run) => run.mode === mode).map((run) => pick(run).requestsPerSecond);
  const cpuOf = (mode: ObservabilityMode, pick: (run: ObservabilityRun) => number | null) => runs.filter((run) => run.mode === mode).map(pick);
  const cpuCost = (pick: (run: ObservabilityRun) => number | null) => {
    const off = cpuOf('off', pick);
    const on = cpuOf('on', pick);
    if ([...off, ...on].some((value) => value === null)) return null;
    return -costPercent(off as number[], on as number[]);
  };
  return {
    warmupSeconds,
    runs,
    readCostPercent: costPercent(rate('off', (run) => run.read), rate('on', (run) => run.read)),
    commandCostPercent: costPercent(rate('off', (run) => run.commands), rate('on', (run) => run.commands)),
    readCpuCostPercent: cpuCost((run) => run.readCpuMs),
    commandCpuCostPercent: cpuCost((run) => run.commandCpuMs),
  };
}

import { runLoad, type LoadResult } from '../load.js';
import { sumCounter, withLoad, type LoadAround } from '../machineLoad.js';
import type { RunningSystem } from '../system.js';
import { profileChange } from './commands.js';

export interface ApiScaleRun extends LoadResult {
  processes: number;
  /** Answers by status. */
  statuses: Record<string, number>;
  load: LoadAround;
  /** CPU seconds each process used during the run (/proc), by process name: where the cores went. */
  cpuSeconds: Record<string, number | null>;
  /** Over the API processes, from their /metrics: commands accepted, and times one was decided again after losing a race on its stream. */
  commandsAccepted: number | null;
  conflictRetries: number | null;
}

/** Commands accepted and conflict retries so far, summed over the processes' metrics; null when one cannot be read. */
async function commandCounters(ports: (number | undefined)[]): Promise<{ accepted: number; retries: number } | null> {
  let accepted = 0;
  let retries = 0;
  for (const port of ports) {
    if (port === undefined) return null;
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(5_000) }).catch(() => null);
    if (!res?.ok) return null;
    const text = await res.text();
    accepted += sumCounter(text, 'honeylend_commands_total', 'outcome="accepted"');
    retries += sumCounter(text, 'honeylend_command_conflict_retries_total');
  }
  return { accepted, retries };
}

export interface ApiScaleResult {
  connections: number;
  /** Of every four requests, this many are reads (the rest profile updates). */
  readsPerFour: number;
  runs: ApiScaleRun[];
}

/**
 * Issue 19, scale-out of the API: the same mixed load — reads of `GET /api/loans/user` and
 * `GET /api/user/profile` and profile updates (`PUT /api/user/profile`), three reads to one command,
 * every seeded member in turn — against 1, 2 and 3 `lending api` processes, with `connections`
 * keep-alive connections spread round robin over their ports. Projections and workers stay one
 * process each. Runs alternate as 1, 2, 3 processes in one window each, so every figure is against
 * one process in the same run.
 */
/** The mixed load: of every four requests, two reads of the loans, one of the profile, one profile update; every member in turn. */
function mixedLoad(system: RunningSystem) {
  return (tag: string, count: number) => {
    let k = 0;
    return (): { method: 'GET' | 'PUT'; path: string; headers: Record<string, string>; body?: string } => {
      const i = k++;
      const token = system.tokens[i % system.tokens.length]!;
      if (i % 4 === 3) {
        return { method: 'PUT', path: '/api/user/profile', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: profileChange(`${tag}-${count}-${i}`) };
      }
      return { method: 'GET', path: i % 2 === 0 ? '/api/loans/user' : '/api/user/profile', headers: { authorization: `Bearer ${token}` } };
    };
  };
}

export async function apiScaleScenario(system: RunningSystem, { connections, durationSeconds, processes, tag }: { connections: number; durationSeconds: number; processes: number[]; tag: string }): Promise<ApiScaleResult> {
  const extra = await system.startExtraApis(Math.max(...processes) - 1);
  const request = mixedLoad(system);
  const runs: ApiScaleRun[] = [];
  try {
    // The added processes start cold (no JIT, empty caches) where the first has served every scenario
    // before: each gets the same load alone for a while first, unmeasured.
    for (const url of extra.urls) await runLoad({ url, connections, durationSeconds: Math.min(5, durationSeconds), next: request('warm', 0) });
    for (const count of processes) {
      const urls = [system.baseUrl, ...extra.urls].slice(0, count);
      const statuses: Record<string, number> = {};
      const watched = [...system.children, ...extra.children];
      const apiPorts = [system.api, ...extra.children].map((child) => system.metricsPortOf(child));
      const countersBefore = await commandCounters(apiPorts);
      const cpuBefore = watched.map((child) => child.cpuSeconds());
      const { value, load } = await withLoad(() =>
        runLoad({
          url: urls,
          connections,
          durationSeconds,
          next: request(tag, count),
          onResponse: (status) => {
            statuses[status] = (statuses[status] ?? 0) + 1;
          },
        }),
      );
      const cpuSeconds = Object.fromEntries(
        watched.map((child, i) => {
          const after = child.cpuSeconds();
          const before = cpuBefore[i];
          return [child.name, after === null || before === null || before === undefined ? null : Math.round((after - before) * 100) / 100];
        }),
      );
      const countersAfter = await commandCounters(apiPorts);
      const counted = countersBefore && countersAfter ? { commandsAccepted: countersAfter.accepted - countersBefore.accepted, conflictRetries: countersAfter.retries - countersBefore.retries } : { commandsAccepted: null, conflictRetries: null };
      runs.push({ ...value, processes: count, statuses, load, cpuSeconds, ...counted });
    }
  } finally {
    await extra.stop();
  }
  return { connections, readsPerFour: 3, runs };
}

import { runLoad, type LoadResult } from '../load.js';
import { sumCounter, withLoad, type LoadAround } from '../machineLoad.js';
import type { RunningSystem } from '../system.js';
import { profileChange } from './commands.js';

/**
 * How the load is spread over the processes: connection by connection (what a plain round-robin
 * or least-connections proxy does), or each member's requests to one process (what the deployment's
 * proxy does, hashing the Authorization header: deploy/caddy/Caddyfile).
 */
export type ApiRouting = 'round robin' | 'by member';

export interface ApiScaleRun extends LoadResult {
  processes: number;
  routing: ApiRouting;
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
 * The mixed load: of every four requests, two reads of the loans, one of the profile, one profile
 * update; every member in turn — or, with `share`, only the members whose place in the seeded list
 * is `share.index` modulo `share.of` (one process's members when the load is routed by member).
 */
function mixedLoad(system: RunningSystem, share?: { of: number; index: number }) {
  const tokens = share ? system.tokens.filter((_, i) => i % share.of === share.index) : system.tokens;
  return (tag: string, count: number) => {
    let k = 0;
    return (): { method: 'GET' | 'PUT'; path: string; headers: Record<string, string>; body?: string } => {
      const i = k++;
      const token = tokens[i % tokens.length];
      if (i % 4 === 3) {
        return { method: 'PUT', path: '/api/user/profile', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: profileChange(`${tag}-${count}-${share?.index ?? 0}-${i}`) };
      }
      return { method: 'GET', path: i % 2 === 0 ? '/api/loans/user' : '/api/user/profile', headers: { authorization: `Bearer ${token}` } };
    };
  };
}

/** Several load runs at once as one: their requests and rates added, each latency percentile the slowest run's. */
function together(parts: LoadResult[]): LoadResult {
  const sum = (pick: (part: LoadResult) => number) => parts.reduce((total, part) => total + pick(part), 0);
  const slowest = (pick: (part: LoadResult) => number) => Math.max(...parts.map(pick));
  const total = sum((part) => part.total);
  return {
    requestsPerSecond: sum((part) => part.requestsPerSecond),
    total,
    non2xx: sum((part) => part.non2xx),
    errors: sum((part) => part.errors),
    timeouts: sum((part) => part.timeouts),
    latencyMs: {
      p50: slowest((part) => part.latencyMs.p50),
      p90: slowest((part) => part.latencyMs.p90),
      p99: slowest((part) => part.latencyMs.p99),
      max: slowest((part) => part.latencyMs.max),
      mean: total === 0 ? 0 : sum((part) => part.latencyMs.mean * part.total) / total,
    },
    durationSeconds: slowest((part) => part.durationSeconds),
  };
}

/**
 * The mixed load on `urls` for `durationSeconds`: round robin, one autocannon giving connection i
 * to url i mod n; by member, one autocannon per url with its share of the connections and of the members.
 */
function loadOver(
  system: RunningSystem,
  urls: string[],
  routing: ApiRouting,
  { connections, durationSeconds, tag, onResponse }: { connections: number; durationSeconds: number; tag: string; onResponse: (status: number) => void },
): Promise<LoadResult> {
  if (routing === 'round robin' || urls.length === 1) {
    return runLoad({ url: urls, connections, durationSeconds, next: mixedLoad(system)(tag, urls.length), onResponse });
  }
  return Promise.all(
    urls.map((url, index) =>
      runLoad({
        url,
        connections: Math.floor(connections / urls.length) + (index < connections % urls.length ? 1 : 0),
        durationSeconds,
        next: mixedLoad(system, { of: urls.length, index })(`${tag}-member`, urls.length),
        onResponse,
      }),
    ),
  ).then(together);
}

/**
 * Issue 19, scale-out of the API: the same mixed load — reads of `GET /api/loans/user` and
 * `GET /api/user/profile` and profile updates (`PUT /api/user/profile`), three reads to one command,
 * every seeded member in turn — against 1, 2 and 3 `lending api` processes, with `connections`
 * keep-alive connections spread over their ports, round robin and then by member. Projections and
 * workers stay one process each. Each count runs in one window after the other, so every figure is
 * against one process in the same run.
 */
export async function apiScaleScenario(
  system: RunningSystem,
  { connections, durationSeconds, processes, tag }: { connections: number; durationSeconds: number; processes: number[]; tag: string },
): Promise<ApiScaleResult> {
  const extra = await system.startExtraApis(Math.max(...processes) - 1);
  const runs: ApiScaleRun[] = [];
  try {
    // The added processes start cold (no JIT, empty caches) where the first has served every scenario
    // before: each gets the same load alone for a while first, unmeasured.
    for (const url of extra.urls) await runLoad({ url, connections, durationSeconds: Math.min(5, durationSeconds), next: mixedLoad(system)('warm', 0) });
    const plan = processes.flatMap((count): { count: number; routing: ApiRouting }[] =>
      count === 1
        ? [{ count, routing: 'round robin' }]
        : [
            { count, routing: 'round robin' },
            { count, routing: 'by member' },
          ],
    );
    for (const { count, routing } of plan) {
      const urls = [system.baseUrl, ...extra.urls].slice(0, count);
      const statuses: Record<string, number> = {};
      const watched = [...system.children, ...extra.children];
      const apiPorts = [system.api, ...extra.children].map((child) => system.metricsPortOf(child));
      const countersBefore = await commandCounters(apiPorts);
      const cpuBefore = watched.map((child) => child.cpuSeconds());
      const { value, load } = await withLoad(() =>
        loadOver(system, urls, routing, {
          connections,
          durationSeconds,
          tag,
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
      const counted =
        countersBefore && countersAfter
          ? { commandsAccepted: countersAfter.accepted - countersBefore.accepted, conflictRetries: countersAfter.retries - countersBefore.retries }
          : { commandsAccepted: null, conflictRetries: null };
      runs.push({ ...value, processes: count, routing, statuses, load, cpuSeconds, ...counted });
    }
  } finally {
    await extra.stop();
  }
  return { connections, readsPerFour: 3, runs };
}

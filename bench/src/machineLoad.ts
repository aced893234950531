import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

/**
 * How busy the machine was around a measurement. On a shared host the absolute figures move with
 * the neighbours' work, so every scenario records the load average before and after itself, and a
 * figure measured while the one-minute load was above the number of cores says so.
 */
export interface LoadSample {
  /** ISO time of the sample. */
  at: string;
  /** The 1, 5 and 15 minute load averages. */
  oneMinute: number;
  fiveMinutes: number;
  fifteenMinutes: number;
}

export interface LoadAround {
  before: LoadSample;
  after: LoadSample;
}

export function sampleLoad(now: Date = new Date(), averages: number[] = loadavg()): LoadSample {
  const [one = 0, five = 0, fifteen = 0] = averages;
  const two = (value: number) => Math.round(value * 100) / 100;
  return { at: now.toISOString(), oneMinute: two(one), fiveMinutes: two(five), fifteenMinutes: two(fifteen) };
}

export const coreCount = (): number => cpus().length;

/** Busy: the one-minute load average above the core count (more runnable work than cores). */
export function isBusy(oneMinute: number, cores: number): boolean {
  return oneMinute > cores;
}

export interface LoadVerdict {
  busy: boolean;
  /** The highest one-minute load seen around the measurement. */
  peak: number;
  /** "load 1.2 → 3.4" or "BUSY: load 3.1 → 5.0 on 2 cores". */
  text: string;
}

/** Whether a measurement was taken on a busy machine, judged by its samples before and after. */
export function classifyLoad(around: LoadAround, cores: number): LoadVerdict {
  const peak = Math.max(around.before.oneMinute, around.after.oneMinute);
  const busy = isBusy(peak, cores);
  const span = `load ${around.before.oneMinute.toFixed(1)} → ${around.after.oneMinute.toFixed(1)}`;
  return { busy, peak, text: busy ? `BUSY: ${span} on ${cores} cores` : span };
}

/** Runs `work` and records the load average just before and just after it. */
export async function withLoad<T>(work: () => Promise<T>, sample: () => LoadSample = sampleLoad): Promise<{ value: T; load: LoadAround }> {
  const before = sample();
  const value = await work();
  return { value, load: { before, after: sample() } };
}

/**
 * The run whose `key` is the median of an odd number of runs (the middle one once sorted), with
 * every run's figure beside it: the median of three hides one run that a neighbour's burst of work
 * hit, where the mean would carry it.
 */
export function medianRun<T>(runs: T[], key: (run: T) => number): { median: T; values: number[] } {
  if (runs.length === 0) throw new Error('no runs to take the median of');
  if (runs.length % 2 === 0) throw new Error(`the median run needs an odd number of runs, got ${runs.length}`);
  const sorted = [...runs].sort((a, b) => key(a) - key(b));
  return { median: sorted[(sorted.length - 1) / 2], values: runs.map(key) };
}

/**
 * How many times to run an HTTP scenario: three (the median is reported) in a quick run on a busy
 * machine, once otherwise — the full run's longer windows already average a neighbour's bursts.
 */
export function repetitionsFor(quick: boolean, loadBefore: LoadSample, cores: number): 1 | 3 {
  return quick && isBusy(loadBefore.oneMinute, cores) ? 3 : 1;
}

/** This process's soft limit on open files (Linux /proc), or null where unknown. Child processes inherit it. */
export function openFileLimit(limits?: string): number | null {
  try {
    const text = limits ?? readFileSync('/proc/self/limits', 'utf8');
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(text);
    if (!match) return null;
    return match[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(match[1]);
  } catch {
    return null;
  }
}

/**
 * How many sockets one process can hold under that limit, leaving `spare` descriptors for
 * everything else it has open (Redis, PostgreSQL, files, its own listeners), in whole batches.
 */
export function socketsWithin(wanted: number, limit: number | null, batch: number, spare = 2_000): number {
  if (limit === null || wanted + spare <= limit) return wanted;
  return Math.max(batch, Math.floor((limit - spare) / batch) * batch);
}

/** The sum of a counter's series in a Prometheus text exposition (every label set), or 0 when absent; `where` keeps only series whose labels contain it. */
export function sumCounter(exposition: string, name: string, where = ''): number {
  let sum = 0;
  for (const line of exposition.split('\n')) {
    if (!line.startsWith(name) || (line[name.length] !== '{' && line[name.length] !== ' ')) continue;
    if (where && !line.includes(where)) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (Number.isFinite(value)) sum += value;
  }
  return sum;
}

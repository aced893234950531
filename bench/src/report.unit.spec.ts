import { describe, expect, it } from 'vitest';
import type { LoadResult } from './load.js';
import { sampleLoad } from './machineLoad.js';
import { parseOptions } from './options.js';
import { evaluate, renderTable } from './report.js';
import { costPercent, sideBySideOrder } from './scenarios/observability.js';

const load = (oneMinute: number) => sampleLoad(new Date('2026-11-25T20:00:00Z'), [oneMinute, 0, 0]);
const http = (requestsPerSecond: number, p99: number): LoadResult => ({
  requestsPerSecond,
  total: requestsPerSecond * 5,
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  latencyMs: { p50: p99 / 2, p90: p99, p99, max: p99 * 2, mean: p99 / 2 },
  durationSeconds: 5,
});

describe('the report', () => {
  it('compares reads with the mean of the baselines before and after, and marks a busy machine in the load column', () => {
    const { rows, checks } = evaluate(
      {
        baseline: http(20_000, 10),
        baselineAfter: http(10_000, 10),
        read: { profile: http(12_000, 12) },
        loads: {
          baseline: { before: load(0.5), after: load(1.1) },
          'read.profile': { before: load(1.5), after: load(3.2), repeats: [11_000, 12_000, 13_500] },
        },
      },
      parseOptions(['--quick']),
      2,
    );
    expect(rows.map((row) => row.load)).toEqual(['load 0.5 → 1.1', '–', 'BUSY: load 1.5 → 3.2 on 2 cores; median of 3 (11,000, 12,000, 13,500)']);
    expect(rows[2].baseline).toBe('0.80× req/s, p99 1.20×');
    expect(checks[0]).toMatchObject({ figure: 'read API GET /api/user/profile', met: true });
    expect(renderTable(rows).split('\n')[0]).toContain('Load (1 min) before → after');
  });

  it('judges the open loop by its p99 from the scheduled time and by nothing dropped', () => {
    const open = (p99: number, dropped: number) =>
      evaluate(
        {
          commands: {
            openLoop: {
              offeredPerSecond: 1000,
              durationSeconds: 20,
              scheduled: 20_000,
              sent: 20_000,
              ok: 20_000 - dropped,
              failed: dropped,
              errors: 0,
              notSent: 0,
              dropped,
              completedPerSecond: 1000,
              latencyMs: { count: 1, p50: 5, p95: p99, p99, max: p99, mean: 5 },
              sendLagMs: { count: 1, p50: 0, p95: 0, p99: 0, max: 0, mean: 0 },
              statuses: {},
              firstError: null,
              loanApplications: 0,
              profileUpdates: 0,
            },
          },
        },
        parseOptions([]),
      ).checks[0].met;
    expect(open(29, 0)).toBe(true);
    expect(open(31, 0)).toBe(false);
    expect(open(10, 1)).toBe(false);
  });
});

describe('the bench options', () => {
  it('takes the number of logging-cost cycles from --observability-cycles, and refuses a bad one', () => {
    expect(parseOptions([]).observabilityCycles).toBe(3);
    expect(parseOptions(['--observability-cycles=6']).observabilityCycles).toBe(6);
    expect(parseOptions(['--quick', '--observability-cycles=2']).observabilityCycles).toBe(2);
    // The roles restart before each run: every window follows unmeasured load of its own kind.
    expect(parseOptions([]).observabilityWarmupSeconds).toBe(3);
    expect(parseOptions(['--quick']).observabilityWarmupSeconds).toBe(1);
    expect(() => parseOptions(['--observability-cycles=0'])).toThrow(/whole number/);
    expect(() => parseOptions(['--observability-cycles=two'])).toThrow(/whole number/);
  });
});

describe('the wallet repayments target (issue 15)', () => {
  it('needs the closed loop to reach 500/s and, at 500/s offered open loop, ack p99 ≤ 50 ms with nothing dropped', () => {
    const judged = (ceiling: number, p99: number | null, dropped = 0) =>
      evaluate(
        {
          repayments: { ...http(ceiling, 60), connections: 16, statuses: { 201: ceiling * 5 }, loans: 1000, cpuMsPerRepayment: {} },
          ...(p99 === null
            ? {}
            : {
                repaymentsOpenLoop: {
                  offeredPerSecond: 500,
                  durationSeconds: 20,
                  scheduled: 10_000,
                  sent: 10_000,
                  ok: 10_000 - dropped,
                  failed: dropped,
                  errors: 0,
                  notSent: 0,
                  dropped,
                  completedPerSecond: 500,
                  latencyMs: { count: 1, p50: 10, p95: p99, p99, max: p99, mean: 10 },
                  sendLagMs: { count: 1, p50: 0, p95: 0, p99: 0, max: 0, mean: 0 },
                  statuses: {},
                  firstError: null,
                  loans: 1000,
                },
              }),
        },
        parseOptions([]),
      ).checks.find((check) => check.figure === 'wallet repayments')!.met;
    // The closed loop's own p99 (60 ms, its queue at saturation) does not decide it.
    expect(judged(785, 30)).toBe(true);
    expect(judged(785, 51)).toBe(false);
    expect(judged(785, 30, 3)).toBe(false);
    expect(judged(480, 30)).toBe(false);
    expect(judged(785, null)).toBe(null);
  });
});

describe('the cost of logging and metrics', () => {
  it('is 1 − on/off of what both sides did over the same windows, in percent', () => {
    expect(costPercent([1000, 1000], [950, 970])).toBeCloseTo(4);
    expect(costPercent([1000], [1100])).toBeCloseTo(-10);
    // Summed, not averaged ratio by ratio: a window where the host gave both little weighs little.
    expect(costPercent([1000, 100], [1000, 50])).toBeCloseTo((1 - 1050 / 1100) * 100);
  });

  it('swaps which API process is on run by run, each cycle mirrored by the next, so each process is on in each place equally often', () => {
    expect(sideBySideOrder(1)).toEqual(['first', 'second']);
    expect(sideBySideOrder(3)).toEqual(['first', 'second', 'second', 'first', 'first', 'second']);
    const order = sideBySideOrder(2);
    for (let place = 0; place < 2; place++) expect(new Set([order[place], order[place + 2]])).toEqual(new Set(['first', 'second']));
    expect(() => sideBySideOrder(0)).toThrow();
  });
});

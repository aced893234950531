import { describe, expect, it } from 'vitest';
import { classifyLoad, isBusy, medianRun, openFileLimit, repetitionsFor, sampleLoad, socketsWithin, sumCounter, withLoad } from './machineLoad.js';

const at = (oneMinute: number) => sampleLoad(new Date('2026-11-25T20:00:00Z'), [oneMinute, 1, 1]);

describe('load classification', () => {
  it('calls the machine busy when the one-minute load is above the core count', () => {
    expect(isBusy(2, 2)).toBe(false);
    expect(isBusy(2.01, 2)).toBe(true);
    expect(classifyLoad({ before: at(0.4), after: at(1.7) }, 2)).toEqual({ busy: false, peak: 1.7, text: 'load 0.4 → 1.7' });
    expect(classifyLoad({ before: at(1.2), after: at(9.55) }, 2)).toEqual({ busy: true, peak: 9.55, text: 'BUSY: load 1.2 → 9.6 on 2 cores' });
    expect(classifyLoad({ before: at(3), after: at(1) }, 4).busy).toBe(false);
  });

  it('samples the three averages, rounded to hundredths', () => {
    expect(sampleLoad(new Date('2026-11-25T20:00:00Z'), [1.23456, 2.5, 0.049])).toEqual({ at: '2026-11-25T20:00:00.000Z', oneMinute: 1.23, fiveMinutes: 2.5, fifteenMinutes: 0.05 });
  });

  it('records the load before and after a piece of work', async () => {
    const samples = [at(1), at(5)];
    const { value, load } = await withLoad(
      async () => 42,
      () => samples.shift()!,
    );
    expect(value).toBe(42);
    expect(load.before.oneMinute).toBe(1);
    expect(load.after.oneMinute).toBe(5);
  });
});

describe('median of three', () => {
  it("reports the middle run, whole, with every run's figure in the order run", () => {
    const runs = [
      { rps: 900, p99: 30 },
      { rps: 1500, p99: 12 },
      { rps: 1200, p99: 20 },
    ];
    const { median, values } = medianRun(runs, (run) => run.rps);
    expect(median).toBe(runs[2]);
    expect(values).toEqual([900, 1500, 1200]);
    expect(medianRun([runs[0]], (run) => run.rps).median).toBe(runs[0]);
  });

  it('refuses no runs or an even number of them', () => {
    expect(() => medianRun([], (n: number) => n)).toThrow(/no runs/);
    expect(() => medianRun([1, 2], (n) => n)).toThrow(/odd/);
  });

  it('repeats three times only in a quick run on a busy machine', () => {
    expect(repetitionsFor(true, at(2.5), 2)).toBe(3);
    expect(repetitionsFor(true, at(1.5), 2)).toBe(1);
    expect(repetitionsFor(false, at(9), 2)).toBe(1);
  });
});

describe('open-file limit', () => {
  it('reads the soft limit from /proc limits', () => {
    const text = 'Limit                     Soft Limit           Hard Limit           Units     \nMax open files            20000                20000                files     \n';
    expect(openFileLimit(text)).toBe(20_000);
    expect(openFileLimit('Max open files            unlimited            unlimited            files')).toBe(Number.POSITIVE_INFINITY);
    expect(openFileLimit('nothing here')).toBeNull();
  });

  it('caps the sockets held to whole batches under the limit, keeping descriptors spare', () => {
    expect(socketsWithin(20_000, 20_000, 500)).toBe(18_000);
    expect(socketsWithin(10_000, 20_000, 500)).toBe(10_000);
    expect(socketsWithin(20_000, null, 500)).toBe(20_000);
    expect(socketsWithin(20_000, 65_536, 500)).toBe(20_000);
  });
});

describe('sumCounter', () => {
  it('adds a counter over its label sets, optionally only those with a label', () => {
    const text = [
      '# HELP honeylend_command_conflict_retries_total Times a command was decided again',
      '# TYPE honeylend_command_conflict_retries_total counter',
      'honeylend_command_conflict_retries_total{command="UpdateProfile"} 12',
      'honeylend_command_conflict_retries_total{command="ApplyForLoan"} 3',
      'honeylend_commands_total{command="UpdateProfile",outcome="accepted",code=""} 100',
      'honeylend_commands_total{command="UpdateProfile",outcome="conflict",code=""} 2',
      'honeylend_commands_total_other 7',
    ].join('\n');
    expect(sumCounter(text, 'honeylend_command_conflict_retries_total')).toBe(15);
    expect(sumCounter(text, 'honeylend_commands_total', 'outcome="accepted"')).toBe(100);
    expect(sumCounter(text, 'honeylend_commands_total')).toBe(102);
    expect(sumCounter(text, 'honeylend_missing')).toBe(0);
  });
});

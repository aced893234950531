import { describe, expect, it } from 'vitest';
import { arrivalSchedule, runOpenLoop } from './openLoop.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('arrivalSchedule', () => {
  it('spaces rate × duration requests 1/rate apart from the start', () => {
    const times = arrivalSchedule(1000, 2);
    expect(times).toHaveLength(2000);
    expect(times[0]).toBe(0);
    expect(times[1]).toBeCloseTo(1);
    expect(times.at(-1)).toBeCloseTo(1999);
    expect(arrivalSchedule(20, 30)).toHaveLength(600);
    expect(arrivalSchedule(20, 30)[599]).toBeCloseTo(29_950);
  });

  it('refuses a zero rate or duration', () => {
    expect(() => arrivalSchedule(0, 5)).toThrow(/positive/);
    expect(() => arrivalSchedule(10, 0)).toThrow(/positive/);
  });
});

describe('runOpenLoop', () => {
  it('keeps sending at the offered rate while the system is slow, and counts nothing dropped when all are answered', async () => {
    const sentAt: number[] = [];
    const started = performance.now();
    const result = await runOpenLoop({
      ratePerSecond: 200,
      durationSeconds: 0.5,
      send: async () => {
        sentAt.push(performance.now() - started);
        await sleep(50); // slower than the 5 ms gap: a closed loop of one would send only ten
        return { ok: true, status: 200 };
      },
    });
    expect(result.scheduled).toBe(100);
    expect(result.sent).toBe(100);
    expect(result.ok).toBe(100);
    expect(result.dropped).toBe(0);
    // The last request left near its scheduled 495 ms, not after 100 × 50 ms.
    expect(Math.max(...sentAt)).toBeLessThan(800);
    expect(result.latencyMs.p50).toBeGreaterThanOrEqual(49);
    expect(result.statuses).toEqual({ 200: 100 });
  });

  it('measures from the scheduled time, so a queue in the system shows in the latency (no coordinated omission)', async () => {
    // A server that handles one request at a time, 20 ms each, offered one every 10 ms: its queue grows by
    // 10 ms per request. A closed loop would report 20 ms for every request; the truth is a growing wait.
    let busyUntil = 0;
    const result = await runOpenLoop({
      ratePerSecond: 100,
      durationSeconds: 0.5,
      send: async () => {
        const now = performance.now();
        busyUntil = Math.max(busyUntil, now) + 20;
        await sleep(busyUntil - now);
        return { ok: true, status: 200 };
      },
    });
    expect(result.ok).toBe(50);
    expect(result.latencyMs.p50).toBeGreaterThan(200);
    expect(result.latencyMs.max).toBeGreaterThan(450);
  });

  it('counts failures, errors and requests over the in-flight limit as dropped', async () => {
    const result = await runOpenLoop({
      ratePerSecond: 100,
      durationSeconds: 0.3,
      maxInFlight: 25,
      send: async (i) => {
        if (i === 0) throw new Error('connection refused');
        if (i === 1) return { ok: false, status: 503 };
        await sleep(1_000); // nothing else answers within the run: the limit is reached
        return { ok: true, status: 200 };
      },
    });
    expect(result.scheduled).toBe(30);
    expect(result.errors).toBe(1);
    expect(result.failed).toBe(1);
    // 0 and 1 end at once; 2–26 fill the 25 places for a second; 27–29 find no place.
    expect(result.notSent).toBe(3);
    expect(result.ok).toBe(25);
    expect(result.dropped).toBe(5);
    expect(result.firstError).toBe('connection refused');
  });

  it('takes a late outcome (the SMS in the outbox) from completedAt', async () => {
    const result = await runOpenLoop({
      ratePerSecond: 10,
      durationSeconds: 0.3,
      send: async () => ({ ok: true, status: 202, completedAt: performance.now() + 100 }),
    });
    expect(result.ok).toBe(3);
    expect(result.latencyMs.p50).toBeGreaterThanOrEqual(99);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, uniquePhone, type TestSystem } from '../../../cli/src/testing/testSystem.js';
import { registerBorrower } from '../../../cli/src/testing/borrowers.js';
import { percentile, reportFigure } from '../support/figures.js';
import { scaled } from '../support/scale.js';

/**
 * Check 18 (issue 14 item 4): a registration flood against the limits production runs with (120
 * sign-ups an hour per address), half of it from one address and half from ever-new addresses
 * (127.0.0.1 is a trusted proxy, so X-Forwarded-For plays them). The one address is answered 429;
 * the many reach argon2, which runs two at a time with a short line (503 BUSY past it), so a
 * borrower signing in meanwhile still gets in. Figures: registrations answered 429 per second, and
 * the login p99 before and during the flood.
 */
const FLOOD_MS = scaled(5_000, 20_000);
const FLOODERS = scaled(16, 40);
const PASSWORD = 'Sampaguita#2026';

let system: TestSystem;
beforeAll(async () => {
  system = await startTestSystem({ registrationsPerHourPerAddress: 120, trustedProxies: '127.0.0.1' });
});
afterAll(() => system?.stop());

let addressCounter = 0;
const freshAddress = () => {
  addressCounter += 1;
  return `100.${64 + ((addressCounter >> 16) & 63)}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
};

async function timedLogins(phone: string, until: () => boolean): Promise<{ latencies: number[]; statuses: number[] }> {
  const latencies: number[] = [];
  const statuses: number[] = [];
  while (until()) {
    const started = performance.now();
    const res = await system.request('POST', '/api/auth/login', { body: { phone, password: PASSWORD }, headers: { 'X-Forwarded-For': '198.51.100.77' } });
    latencies.push(performance.now() - started);
    statuses.push(res.status);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { latencies, statuses };
}

describe('registration flood (check 18)', () => {
  it('answers a flood from one address 429, bounds the hashing of the rest, and keeps sign-ins working (figures: 429/s, login p99)', async () => {
    const borrower = await registerBorrower(system);
    let baselineCount = 0;
    const baseline = await timedLogins(borrower.phone, () => baselineCount++ < 20);

    const statuses = new Map<number, number>();
    const floodEnds = Date.now() + FLOOD_MS;
    const flooding = () => Date.now() < floodEnds;
    const register = async (address: string) => {
      const res = await system.request('POST', '/api/auth/register', {
        body: { phone: uniquePhone(), password: PASSWORD, fullName: 'Flood Account' },
        headers: { 'X-Forwarded-For': address },
      });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    };
    // Half the flooders send bursts of 10 from one address; the other half one at a time, each from a new address.
    const flooder = async (index: number) => {
      while (flooding()) {
        if (index % 2 === 0) await Promise.all(Array.from({ length: 10 }, () => register('203.0.113.66')));
        else await register(freshAddress());
      }
    };
    const started = Date.now();
    const [during] = await Promise.all([timedLogins(borrower.phone, flooding), ...Array.from({ length: FLOODERS }, (_, i) => flooder(i))]);
    const seconds = (Date.now() - started) / 1000;

    const answered429 = statuses.get(429) ?? 0;
    process.stdout.write(`registration flood: ${JSON.stringify(Object.fromEntries(statuses))} in ${seconds.toFixed(1)} s; ${during.latencies.length} logins\n`);
    reportFigure({ check: '18 registration flood', name: 'registrations answered 429 per second (one address)', value: Math.round(answered429 / seconds) });
    reportFigure({ check: '18 registration flood', name: 'login p99 before the flood (ms)', value: Math.round(percentile(baseline.latencies, 99)) });
    reportFigure({ check: '18 registration flood', name: 'login p99 during the flood (ms)', value: Math.round(percentile(during.latencies, 99)) });

    expect(answered429).toBeGreaterThan(0);
    // Nothing but sign-ups, refusals of the flood and the busy lane's 503: never a failure.
    expect(
      [...statuses.keys()].every((status) => [201, 429, 503].includes(status)),
      JSON.stringify(Object.fromEntries(statuses)),
    ).toBe(true);
    // Every sign-in during the flood got in.
    expect(during.statuses.length).toBeGreaterThan(0);
    expect(during.statuses.every((status) => status === 200)).toBe(true);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, uniquePhone, type TestSystem } from '../../../cli/src/testing/testSystem.js';
import { registerBorrower } from '../../../cli/src/testing/borrowers.js';
import { reportFigure } from '../support/figures.js';

const RIGHT_PASSWORD = 'Sampaguita#2026';
const HOUR_MS = 3_600_000;

// The API's clock, moved by the test: backoff windows pass without waiting for them.
let clockMs = Date.now();
let system: TestSystem;
beforeAll(async () => {
  // The test's requests come from 127.0.0.1, trusted as a proxy, so X-Forwarded-For plays many attackers.
  system = await startTestSystem({ now: () => new Date(clockMs), trustedProxies: '127.0.0.1' });
});
afterAll(() => system?.stop());

let addressCounter = 0;
const nextAddress = () => {
  addressCounter += 1;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
};
const login = (phone: string, password: string, address = nextAddress()) =>
  system.request('POST', '/api/auth/login', { body: { phone, password }, headers: { 'X-Forwarded-For': address } });

describe('login brute force', () => {
  it('lets 5 of 150 concurrent wrong passwords from 150 addresses be tried, then makes the account wait; the owner gets in after the window', async () => {
    const borrower = await registerBorrower(system);
    const answers = await Promise.all(Array.from({ length: 150 }, (_, i) => login(borrower.phone, `wrong-guess-${i}`)));
    const tried = answers.filter((a) => a.status === 401).length;
    const held = answers.filter((a) => a.status === 429);
    expect(tried).toBe(5);
    expect(held).toHaveLength(145);
    expect(held[0]!.body).toMatchObject({ code: 'TOO_MANY_ATTEMPTS', details: { retryAfterSeconds: 30 } });

    // Even the right password waits out the window; then it works, and clears the run of failures.
    expect((await login(borrower.phone, RIGHT_PASSWORD)).status).toBe(429);
    clockMs += 30_001;
    expect((await login(borrower.phone, RIGHT_PASSWORD)).status).toBe(200);
    expect((await login(borrower.phone, 'one-more-typo')).status).toBe(401);
    expect((await login(borrower.phone, RIGHT_PASSWORD)).status).toBe(200);
  });

  it('lets at most 100 wrong passwords an hour be tried against one account, the wait never passes an hour, and the owner is never locked out for good', async () => {
    const borrower = await registerBorrower(system);
    const start = clockMs;
    let tried = 0;
    let longestWaitSeconds = 0;
    while (clockMs - start < HOUR_MS) {
      const answer = await login(borrower.phone, `guess-${tried}`);
      if (answer.status === 401) {
        tried += 1;
      } else {
        expect(answer.status).toBe(429);
        const wait = Number(answer.body.details.retryAfterSeconds);
        longestWaitSeconds = Math.max(longestWaitSeconds, wait);
        clockMs += wait * 1000 + 1;
      }
    }
    reportFigure({ check: '1 login brute force', name: 'wrong attempts tried per hour against one account', value: tried, target: '≤ 100' });
    expect(tried).toBeGreaterThanOrEqual(5);
    expect(tried).toBeLessThanOrEqual(100);

    // Keep failing for a simulated day: the wait stops growing at one hour.
    for (let i = 0; i < 20; i++) {
      const answer = await login(borrower.phone, `later-guess-${i}`);
      if (answer.status === 429) {
        longestWaitSeconds = Math.max(longestWaitSeconds, Number(answer.body.details.retryAfterSeconds));
        clockMs += Number(answer.body.details.retryAfterSeconds) * 1000 + 1;
      }
    }
    expect(longestWaitSeconds).toBe(3600);
    // One more wrong guess once the window has passed, so the owner arrives during a wait.
    let wrong = await login(borrower.phone, 'last-guess');
    if (wrong.status === 429) {
      clockMs += Number(wrong.body.details.retryAfterSeconds) * 1000 + 1;
      wrong = await login(borrower.phone, 'last-guess');
    }
    expect(wrong.status).toBe(401);
    const waiting = await login(borrower.phone, RIGHT_PASSWORD);
    expect(waiting.status).toBe(429);
    clockMs += Number(waiting.body.details.retryAfterSeconds) * 1000 + 1;
    expect((await login(borrower.phone, RIGHT_PASSWORD)).status).toBe(200);
  });

  it('stops one address after 100 failed logins in an hour across accounts, and no other address', async () => {
    const address = nextAddress();
    for (let i = 0; i < 100; i++) expect((await login(uniquePhone(), 'not-the-password', address)).status).toBe(401);
    const borrower = await registerBorrower(system);
    const refused = await login(borrower.phone, RIGHT_PASSWORD, address);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('TOO_MANY_ATTEMPTS');
    expect((await login(borrower.phone, RIGHT_PASSWORD)).status).toBe(200);
  });
});

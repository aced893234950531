import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, SUPERADMIN, uniquePhone, type TestSystem } from '../../../cli/src/testing/testSystem.js';
import { registerBorrower } from '../../../cli/src/testing/borrowers.js';
import { reportFigure } from '../support/figures.js';

const RIGHT_PASSWORD = 'Sampaguita#2026';
const HOUR_MS = 3_600_000;
// One failure drains from an address's bucket this often (100 an hour).
const LOGIN_DRAIN_MS = 36_000;

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
const login = (phone: string, password: string, address = nextAddress()) => system.request('POST', '/api/auth/login', { body: { phone, password }, headers: { 'X-Forwarded-For': address } });
const adminLogin = (username: string, password: string, address: string) => system.request('POST', '/api/auth/admin-login', { body: { username, password }, headers: { 'X-Forwarded-For': address } });
const waitOf = (answer: { body: any }) => Number(answer.body.details.retryAfterSeconds);

describe('login brute force', () => {
  it('lets 10 of 150 concurrent wrong passwords from 150 addresses be tried, then about one a minute; the wait is never more than a minute', async () => {
    const borrower = await registerBorrower(system);
    const answers = await Promise.all(Array.from({ length: 150 }, (_, i) => login(borrower.phone, `wrong-guess-${i}`)));
    expect(answers.filter((a) => a.status === 401)).toHaveLength(10);
    const held = answers.filter((a) => a.status === 429);
    expect(held).toHaveLength(140);
    expect(held[0].body.code).toBe('TOO_MANY_ATTEMPTS');
    expect(Math.max(...held.map(waitOf))).toBeLessThanOrEqual(60);

    // Guessing on from fresh addresses for an hour: at most 10 + 60 tries, no wait above a minute.
    const start = clockMs;
    let tried = 0;
    let longestWaitSeconds = 0;
    while (clockMs - start < HOUR_MS) {
      const answer = await login(borrower.phone, `guess-${tried}`);
      if (answer.status === 401) tried += 1;
      else {
        expect(answer.status).toBe(429);
        longestWaitSeconds = Math.max(longestWaitSeconds, waitOf(answer));
        clockMs += waitOf(answer) * 1000 + 1;
      }
    }
    reportFigure({ check: '1 login brute force', name: 'wrong attempts tried per hour against one account from many addresses', value: tried, target: '≤ 100' });
    reportFigure({ check: '1 login brute force', name: 'longest wait an attacker can put on a known username (s)', value: longestWaitSeconds, target: '≤ 60' });
    expect(tried).toBeLessThanOrEqual(100);
    expect(longestWaitSeconds).toBeLessThanOrEqual(60);
  });

  it('cannot keep a known username locked: the owner signs in from an address they used before while an attacker keeps failing', async () => {
    const borrower = await registerBorrower(system);
    const home = nextAddress();
    expect((await login(borrower.phone, RIGHT_PASSWORD, home)).status).toBe(200);
    // An attacker hammers the account from one address, and from many, waiting out each wait it is given.
    const attacker = nextAddress();
    let attackerLongestWait = 0;
    for (let i = 0; i < 40; i++) {
      const answer = await login(borrower.phone, `attack-${i}`, i % 2 === 0 ? attacker : nextAddress());
      if (answer.status === 429) attackerLongestWait = Math.max(attackerLongestWait, waitOf(answer));
      const owner = await login(borrower.phone, RIGHT_PASSWORD, home);
      expect(owner.status).toBe(200);
    }
    // The attacker is the one held back.
    expect(attackerLongestWait).toBeGreaterThan(0);
    // And the owner on a new address waits at most a minute.
    const elsewhere = await login(borrower.phone, RIGHT_PASSWORD);
    if (elsewhere.status === 429) {
      expect(waitOf(elsewhere)).toBeLessThanOrEqual(60);
      clockMs += waitOf(elsewhere) * 1000 + 1;
      expect((await login(borrower.phone, RIGHT_PASSWORD)).status).toBe(200);
    } else expect(elsewhere.status).toBe(200);
  });

  it('slows one address after 100 failed logins across accounts to a rate, never an hour, and no other address', async () => {
    const address = nextAddress();
    for (let i = 0; i < 100; i++) expect((await login(uniquePhone(), 'not-the-password', address)).status).toBe(401);
    const borrower = await registerBorrower(system);
    const refused = await login(borrower.phone, RIGHT_PASSWORD, address);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('TOO_MANY_ATTEMPTS');
    // 100 an hour, drained continuously: the next attempt is a little over half a minute away, not an hour.
    expect(waitOf(refused)).toBeLessThanOrEqual(36);
    expect((await login(borrower.phone, RIGHT_PASSWORD)).status).toBe(200);
    clockMs += waitOf(refused) * 1000 + 1;
    expect((await login(borrower.phone, RIGHT_PASSWORD, address)).status).toBe(200);
  });

  it('never holds the owner back at an address they signed in from: 100 wrong sign-ins on random numbers from it, then one every 36 s, leave their right password passing', async () => {
    const borrower = await registerBorrower(system);
    const shared = nextAddress();
    expect((await login(borrower.phone, RIGHT_PASSWORD, shared)).status).toBe(200);
    for (let i = 0; i < 100; i++) expect((await login(uniquePhone(), 'not-the-password', shared)).status).toBe(401);
    // The address is held for every account it never signed in to ...
    const stranger = await registerBorrower(system);
    expect((await login(stranger.phone, RIGHT_PASSWORD, shared)).status).toBe(429);
    // ... but not for the owner, while the attacker keeps the bucket full at its drain rate.
    expect((await login(borrower.phone, RIGHT_PASSWORD, shared)).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      clockMs += LOGIN_DRAIN_MS;
      expect((await login(uniquePhone(), 'not-the-password', shared)).status).toBe(401);
      expect((await login(borrower.phone, RIGHT_PASSWORD, shared)).status).toBe(200);
    }
    // The owner's own wrong guesses from that address still meet the per-account backoff.
    const guesses = [];
    for (let i = 0; i < 6; i++) guesses.push((await login(borrower.phone, `owner-typo-${i}`, shared)).status);
    expect(guesses).toContain(429);
  });

  it('keeps borrower and staff sign-ins in separate buckets: failures on one side from an address never hold the other side there', async () => {
    const address = nextAddress();
    for (let i = 0; i < 100; i++) expect((await login(uniquePhone(), 'not-the-password', address)).status).toBe(401);
    expect((await login(uniquePhone(), 'not-the-password', address)).status).toBe(429);
    expect((await adminLogin(SUPERADMIN.username, SUPERADMIN.password, address)).status).toBe(200);

    const staffAddress = nextAddress();
    for (let i = 0; i < 100; i++) expect((await adminLogin(`nobody-${i}@honeylend.test`, 'not-the-password', staffAddress)).status).toBe(401);
    expect((await adminLogin('nobody-else@honeylend.test', 'not-the-password', staffAddress)).status).toBe(429);
    const borrower = await registerBorrower(system);
    expect((await login(borrower.phone, RIGHT_PASSWORD, staffAddress)).status).toBe(200);
  });

  it('counts a whole IPv6 /64 as one client, and another /64 apart', async () => {
    for (let i = 0; i < 100; i++) expect((await login(uniquePhone(), 'not-the-password', `2001:db8:77:1::${(i + 1).toString(16)}`)).status).toBe(401);
    const borrower = await registerBorrower(system);
    expect((await login(borrower.phone, RIGHT_PASSWORD, '2001:db8:77:1:ffff::9')).status).toBe(429);
    expect((await login(borrower.phone, RIGHT_PASSWORD, '2001:db8:77:2::1')).status).toBe(200);
  });
});

import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LATE_CHARGE_SETTINGS, DEFAULT_MONTHLY_RATE_BPS, readModelKeys } from '@honeylend/contracts';
import { openEventStore } from '@honeylend/eventstore';
import { UNCONFIRMED_CLAIMABLE_AFTER_MS } from '../../../command-api/src/members/phoneReservation.js';
import { startTestSystem, type TestSystem } from '../testing/testSystem.js';
import { runLending } from '../testing/lendingCli.js';
import { seedDemo } from './seedDemo.js';

/*
 * The demo is safe to run: its people's numbers cannot be registered again by someone else, its
 * people are marked so the workers never text them, and it never runs on a production store.
 */
let system: TestSystem;
const work = mkdtempSync(join(tmpdir(), 'honeylend-seed-safety-'));
let seeded: { phone: string; memberId: string; reservedAt: string }[] = [];

beforeAll(async () => {
  const store = await openEventStore('pglite:memory');
  await seedDemo({
    store,
    saveFile: async () => undefined,
    now: new Date(),
    members: 16,
    days: 120,
    seed: 20261127,
    monthlyRateBps: DEFAULT_MONTHLY_RATE_BPS,
    lateCharge: DEFAULT_LATE_CHARGE_SETTINGS,
  });
  seeded = (await store.readAll({ limit: 100_000 })).flatMap((event) => (event.type === 'PhoneReserved' ? [event.data as { phone: string; memberId: string; reservedAt: string }] : []));
  system = await startTestSystem({ store });
  await system.api.deps.progress.waitFor(await store.headPosition());
}, 300_000);
afterAll(async () => {
  await system?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('lending seed, safely', () => {
  it('refuses a registration of every number it seeded, however long ago it was reserved', async () => {
    expect(seeded).toHaveLength(16);
    // Most reservations are older than the 7 days after which an unconfirmed number could be claimed.
    expect(seeded.filter((reservation) => Date.parse(reservation.reservedAt) + UNCONFIRMED_CLAIMABLE_AFTER_MS < Date.now()).length).toBeGreaterThan(8);
    for (const { phone } of seeded) {
      const answer = await system.request('POST', '/api/auth/register', { body: { phone, password: 'Sampaguita#2026', fullName: 'Someone Else' } });
      expect(answer.status, phone).toBe(409);
      expect(answer.body.code, phone).toBe('ALREADY_REGISTERED');
    }
    // Still one member per number: nobody was created beside the demo's people.
    const registered = (await system.store.readAll({ limit: 100_000 })).filter((event) => event.type === 'MemberRegistered');
    expect(registered).toHaveLength(16);
  });

  it("marks every member it writes as the demo's, on the event and on the read model the workers read", async () => {
    for (const { memberId } of seeded) {
      const [registered] = await system.store.readStream(`member-${memberId}`);
      expect(registered.data).toMatchObject({ demo: true });
      const doc = JSON.parse((await system.redis.get(readModelKeys(system.keyPrefix).member(memberId))) ?? '{}');
      expect(doc.demo, memberId).toBe(true);
    }
  });

  it('refuses to run with NODE_ENV=production, writing nothing', async () => {
    const events = join(work, 'events');
    const env = {
      NODE_ENV: 'production',
      DATA_DIR: work,
      EVENTSTORE_URL: `pglite:${events}`,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: randomBytes(16).toString('hex'),
      AUDIT_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
      LOG_LEVEL: 'warn',
    };
    const refused = await runLending(['seed', '--members', '3', '--days', '30'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('lending: lending seed writes a demo of invented people: it refuses to run with NODE_ENV=production\n');
    expect(refused.stdout).not.toMatch(/seeded/);
    expect(existsSync(events)).toBe(false);
  });
});

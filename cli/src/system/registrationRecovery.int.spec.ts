import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalisePhone, streams } from '@honeylend/contracts';
import { startTestSystem, uniquePhone, type TestSystem } from '../testing/testSystem.js';

let system: TestSystem;
let clock = new Date('2026-11-23T02:00:00.000Z');
beforeAll(async () => {
  system = await startTestSystem({ now: () => clock });
});
afterAll(() => system?.stop());

const password = 'Sampaguita#2026';
const register = (phone: string) => system.request('POST', '/api/auth/register', { body: { phone, password, fullName: 'Maria Santos' } });

/** What a writer that died between its two appends leaves behind: the number reserved, no member. */
async function reserveWithoutMember(phone: string): Promise<string> {
  const memberId = randomUUID();
  const e164 = normalisePhone(phone)!;
  await system.store.append(
    streams.phone(e164),
    [{ id: randomUUID(), type: 'PhoneReserved', data: { phone: e164, memberId, reservedAt: clock.toISOString() }, metadata: { correlationId: randomUUID(), actorId: 'self' } }],
    { expectedRevision: 'no_stream' },
  );
  return memberId;
}

describe('a registration cut off between the phone reservation and the member', () => {
  it('asks a retry within 15 s to come back shortly (503 with Retry-After), never "already registered"', async () => {
    const phone = uniquePhone();
    await reserveWithoutMember(phone);
    clock = new Date(clock.getTime() + 5_000);
    const retry = await register(phone);
    expect(retry.status).toBe(503);
    expect(retry.body).toMatchObject({ code: 'REGISTRATION_PENDING', message: 'Your registration is still being completed. Please try again in a few seconds.' });
    expect(retry.body.alreadyRegistered).toBeUndefined();
    expect(retry.headers.get('retry-after')).toBe('10');
  });

  it('completes the abandoned reservation once 15 s have passed, under the reserved member id', async () => {
    const phone = uniquePhone();
    const memberId = await reserveWithoutMember(phone);
    clock = new Date(clock.getTime() + 15_000);
    const retry = await register(phone);
    expect(retry.status).toBe(201);
    expect(retry.body.user.id).toBe(memberId);
    expect((await register(phone)).status).toBe(409);
  });

  it('still answers 409 for a number whose member exists, however old its reservation', async () => {
    const phone = uniquePhone();
    expect((await register(phone)).status).toBe(201);
    clock = new Date(clock.getTime() + 3_600_000);
    const again = await register(phone);
    expect(again.status).toBe(409);
    expect(again.body.alreadyRegistered).toBe(true);
  });
});

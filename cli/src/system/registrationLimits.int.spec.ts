import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestSystem, uniquePhone, type TestSystem } from '../testing/testSystem.js';
import { registerBorrower } from '../testing/borrowers.js';
import { pngImage } from '../testing/images.js';
import { NEW_PASSWORD_HASHING } from '../../../command-api/src/platform/passwords/passwords.js';

/**
 * Registration and uploads under the limits production runs with (120 sign-ups an hour per
 * address, 20 at once); 127.0.0.1 is a trusted proxy, so X-Forwarded-For plays other clients.
 */
let system: TestSystem;
beforeAll(async () => {
  system = await startTestSystem({ registrationsPerHourPerAddress: 120, trustedProxies: '127.0.0.1' });
});
afterAll(() => system?.stop());

const PASSWORD = 'Sampaguita#2026';
const register = (phone: string, address: string) => system.request('POST', '/api/auth/register', { body: { phone, password: PASSWORD, fullName: 'Juan Dela Cruz' }, headers: { 'X-Forwarded-For': address } });

describe('registration limits', () => {
  it('lets 20 sign-ups from one address through at once and answers the rest 429 with Retry-After', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, () => register(uniquePhone(), '198.51.100.20')));
    // The 20 let through are registered, or told to retry when more wait to be hashed than the line holds (503 BUSY).
    const letThrough = answers.filter((a) => a.status !== 429);
    expect(letThrough).toHaveLength(20);
    expect(letThrough.every((a) => a.status === 201 || (a.status === 503 && a.body.code === 'BUSY'))).toBe(true);
    expect(letThrough.filter((a) => a.status === 201).length).toBeGreaterThanOrEqual(9);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(10);
    expect(refused[0].body.code).toBe('TOO_MANY_ATTEMPTS');
    expect(Number(refused[0].headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address is not held back by it.
    expect((await register(uniquePhone(), '198.51.100.21')).status).toBe(201);
  });

  it('limits attempts on one number from any number of addresses', async () => {
    const phone = uniquePhone();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await register(phone, `198.51.101.${i + 1}`)).status);
    expect(statuses).toEqual([201, 409, 409, 409, 409, 429, 429]);
  });

  it('refuses a number already registered without hashing the password', async () => {
    const phone = uniquePhone();
    expect((await register(phone, '198.51.102.1')).status).toBe(201);
    const hashing = vi.spyOn(NEW_PASSWORD_HASHING, 'run');
    try {
      const again = await register(phone, '198.51.102.2');
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('ALREADY_REGISTERED');
      expect(hashing).not.toHaveBeenCalled();
    } finally {
      hashing.mockRestore();
    }
  });
});

describe('upload quota', () => {
  it('takes 20 images a day from one member, then answers 429 with Retry-After', async () => {
    const borrower = await registerBorrower(system);
    for (let i = 0; i < 20; i++) {
      expect((await system.upload('/api/upload', { bytes: pngImage(), name: `id-${i}.png`, type: 'image/png' }, borrower.token)).status).toBe(201);
    }
    const refused = await system.upload('/api/upload', { bytes: pngImage(), name: 'one-more.png', type: 'image/png' }, borrower.token);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('UPLOAD_QUOTA_REACHED');
    // Another member's uploads are their own.
    const other = await registerBorrower(system);
    expect((await system.upload('/api/upload', { bytes: pngImage(), name: 'mine.png', type: 'image/png' }, other.token)).status).toBe(201);
  });
});

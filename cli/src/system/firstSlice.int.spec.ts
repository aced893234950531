import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, SUPERADMIN, uniquePhone, type TestSystem } from '../testing/testSystem.js';

let system: TestSystem;
beforeAll(async () => {
  system = await startTestSystem();
});
afterAll(() => system?.stop());

const password = 'Sampaguita#2026';
const register = (phone: string, extra: Record<string, unknown> = {}) => system.request('POST', '/api/auth/register', { body: { phone, password, fullName: 'Maria Santos', ...extra } });

describe('registration (command → events → projection → Redis → query)', () => {
  it('registers, answers a token and the user, and a GET right after sees the same user', async () => {
    const phone = uniquePhone();
    const res = await register(phone, { email: 'Maria@Example.com' });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(typeof res.body.token).toBe('string');
    expect(res.body.user).toMatchObject({
      phone: `+63${phone.slice(1)}`,
      fullName: 'Maria Santos',
      email: 'maria@example.com',
      balance: 0,
      creditScore: 500,
      creditTier: { label: 'Average Credit', stars: 2 },
      status: 'active',
      accountStatus: 'active',
      verified: false,
    });
    const profile = await system.request('GET', '/api/user/profile', { token: res.body.token });
    expect(profile.status).toBe(200);
    expect(profile.body).toEqual(res.body.user);
  });

  it('answers 409 with the spec message for a number already registered, in any of its formats', async () => {
    const local = uniquePhone();
    expect((await register(local)).status).toBe(201);
    for (const variant of [local, `63${local.slice(1)}`, `+63${local.slice(1)}`]) {
      const again = await register(variant);
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ message: 'You already have an account, please login', alreadyRegistered: true, code: 'ALREADY_REGISTERED' });
    }
  });

  it('lets exactly one of 4 racing registrations of one number win', async () => {
    const phone = uniquePhone();
    const results = await Promise.all([0, 1, 2, 3].map(() => register(phone)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    const memberEvents = (await system.store.readAll({ limit: 100_000 })).filter((e) => e.type === 'MemberRegistered' && e.data.phone === `+63${phone.slice(1)}`);
    expect(memberEvents).toHaveLength(1);
  });

  it('refuses bad input with the spec wording, as 400 JSON, and appends nothing', async () => {
    const head = await system.store.headPosition();
    const res = await system.request('POST', '/api/auth/register', { body: { phone: '0917', password: '123', fullName: 'M', email: 'not-an-email' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: 'Phone number is required',
      code: 'VALIDATION_FAILED',
      details: {
        fields: {
          phone: 'Phone number is required',
          password: 'Password must be at least 6 characters',
          fullName: 'Full name is required',
          email: 'Valid email is required',
        },
      },
    });
    expect(await system.store.headPosition()).toBe(head);
  });

  it('answers malformed JSON and unknown endpoints with JSON errors, never a stack trace', async () => {
    const malformed = await system.request('POST', '/api/auth/register', { body: '{"phone":', headers: { 'Content-Type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'BAD_REQUEST', message: expect.any(String) });
    const unknown = await system.request('GET', '/api/no-such-thing');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'NOT_FOUND' });
    expect(JSON.stringify([malformed.body, unknown.body])).not.toMatch(/at .*\.(ts|js):\d+/);
  });
});

describe('login', () => {
  it('signs in with the phone in any format and answers { success, token, user }', async () => {
    const phone = uniquePhone();
    await register(phone);
    const res = await system.request('POST', '/api/auth/login', { body: { phone: `+63${phone.slice(1)}`, password } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, token: expect.any(String), user: { phone: `+63${phone.slice(1)}` } });
  });

  it('gives one message for a wrong password and an unknown phone, so neither is revealed', async () => {
    const phone = uniquePhone();
    await register(phone);
    const wrongPassword = await system.request('POST', '/api/auth/login', { body: { phone, password: 'not-the-password' } });
    const unknownPhone = await system.request('POST', '/api/auth/login', { body: { phone: uniquePhone(), password } });
    expect(wrongPassword.status).toBe(401);
    expect(unknownPhone.status).toBe(401);
    expect(wrongPassword.body).toEqual(unknownPhone.body);
    expect(wrongPassword.body).toEqual({ message: 'Invalid phone number or password', code: 'INVALID_CREDENTIALS' });
  });

  it('holds an account back after 5 wrong passwords in a row', async () => {
    const phone = uniquePhone();
    await register(phone);
    for (let i = 0; i < 5; i++) {
      expect((await system.request('POST', '/api/auth/login', { body: { phone, password: `wrong-${i}-pass` } })).status).toBe(401);
    }
    const held = await system.request('POST', '/api/auth/login', { body: { phone, password } });
    expect(held.status).toBe(429);
    expect(held.body.code).toBe('TOO_MANY_ATTEMPTS');
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('profile', () => {
  it('updates the profile, answers the new state, and ignores fields a borrower may not set', async () => {
    const { body } = await register(uniquePhone());
    const res = await system.request('PUT', '/api/user/profile', {
      token: body.token,
      body: {
        address: '123 Rizal Avenue, Manila',
        countryOfWork: 'Philippines',
        monthlySalary: '25000.50',
        bankName: 'BPI',
        bankAccountNumber: '1234-5678-90',
        balance: 1_000_000,
        creditScore: 850,
        status: 'suspended',
        role: 'superadmin',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      address: '123 Rizal Avenue, Manila',
      monthlySalary: 25000.5,
      bankAccountNumber: '1234567890',
      balance: 0,
      creditScore: 500,
      status: 'active',
      role: 'borrower',
      personalInfoComplete: true,
    });
    const after = await system.request('GET', '/api/user/profile', { token: body.token });
    expect(after.body).toEqual(res.body);
  });

  it('answers each profile rule with the spec wording', async () => {
    const { body } = await register(uniquePhone());
    const res = await system.request('PUT', '/api/user/profile', { token: body.token, body: { address: 'short', bankAccountNumber: '123' } });
    expect(res.status).toBe(400);
    expect(res.body.details.fields).toEqual({ address: 'Address is required', bankAccountNumber: 'Account number is required' });
  });

  it('refuses a missing, forged or non-borrower token', async () => {
    expect((await system.request('GET', '/api/user/profile')).status).toBe(401);
    const { body } = await register(uniquePhone());
    const forged = body.token.slice(0, -4) + (body.token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await system.request('GET', '/api/user/profile', { token: forged })).status).toBe(401);
    const admin = await system.request('POST', '/api/auth/admin-login', { body: SUPERADMIN });
    expect((await system.request('GET', '/api/user/profile', { token: admin.body.token })).status).toBe(403);
  });
});

describe('admin login', () => {
  it('signs the bootstrapped main admin in as superadmin', async () => {
    const res = await system.request('POST', '/api/auth/admin-login', { body: SUPERADMIN });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, token: expect.any(String), user: { username: 'admin', role: 'superadmin', isMainAdmin: true } });
  });

  it('refuses wrong credentials with one message', async () => {
    const res = await system.request('POST', '/api/auth/admin-login', { body: { username: 'admin', password: 'wrong-password' } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Invalid username or password', code: 'INVALID_CREDENTIALS' });
  });
});

describe('no plaintext password anywhere', () => {
  it('keeps every password out of the event log, the read models, the answers and the logs', async () => {
    const secret = 'Unmistakable-Plaintext-9931';
    const phone = uniquePhone();
    const registered = await system.request('POST', '/api/auth/register', { body: { phone, password: secret, fullName: 'Jose Rizal' } });
    const login = await system.request('POST', '/api/auth/login', { body: { phone, password: secret } });
    await system.request('POST', '/api/auth/login', { body: { phone, password: `${secret}-wrong` } });
    await system.request('POST', '/api/auth/admin-login', { body: SUPERADMIN });

    const eventLog = JSON.stringify(await system.store.readAll({ limit: 100_000 }));
    const keys = await system.redis.keys(`${system.keyPrefix}*`);
    const readModels: string[] = [];
    for (const key of keys) {
      const type = await system.redis.type(key);
      if (type === 'string') readModels.push((await system.redis.get(key))!);
      if (type === 'hash') readModels.push(JSON.stringify(await system.redis.hgetall(key)));
      if (type === 'stream') readModels.push(JSON.stringify(await system.redis.xrange(key, '-', '+')));
    }
    const everything = [eventLog, readModels.join('\n'), JSON.stringify([registered.body, login.body]), system.logLines.join('')];
    for (const place of everything) {
      expect(place).not.toContain(secret);
      expect(place).not.toContain(SUPERADMIN.password);
    }
    // The hash lives only in the event log, never in a read model or an answer.
    expect(eventLog).toContain('$argon2id$');
    expect(readModels.join('\n')).not.toContain('$argon2id$');
    expect(JSON.stringify([registered.body, login.body])).not.toMatch(/password|argon2/i);
    // One log line per request, with method, path, status and time.
    const requestLines = system.logLines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    expect(requestLines.some((l) => l.method === 'POST' && l.path === '/api/auth/login' && l.status === 401 && typeof l.ms === 'number')).toBe(true);
  });
});

describe('operations', () => {
  it('answers liveness and readiness with the projection lag', async () => {
    expect((await system.request('GET', '/api/health')).body).toMatchObject({ status: 'ok' });
    const ready = await system.request('GET', '/api/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', eventStore: 'ok', redis: 'ok', projectionLag: expect.any(Number) });
  });
});

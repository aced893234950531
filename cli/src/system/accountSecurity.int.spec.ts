import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@honeylend/contracts';
import { startTestSystem, uniquePhone, type TestSystem } from '../testing/testSystem.js';
import { confirmPhone, registerBorrower, textedCode, verifyBorrower, type Borrower } from '../testing/borrowers.js';

/** Issue 14 items 9 and 10: the borrower's own account security, against the real system. */
const DAY_MS = 86_400_000;
let clockOffsetMs = 0;
let system: TestSystem;
beforeAll(async () => {
  system = await startTestSystem({ now: () => new Date(Date.now() + clockOffsetMs) });
});
afterAll(() => system?.stop());

const PASSWORD = 'Sampaguita#2026';
const login = (phone: string, password: string) => system.request('POST', '/api/auth/login', { body: { phone, password } });
const profile = (token: string) => system.request('GET', '/api/user/profile', { token });
const applyForLoan = (token: string) => system.request('POST', '/api/loans', { token, body: { amount: 80000, purpose: 'Sari-sari store stock', termMonths: 12 } });
const resetCode = (borrower: Borrower) => textedCode(system, borrower, /password reset code is (\d{6})\b/);

describe('change password (POST /api/user/password)', () => {
  it('needs the current password, refuses a common one, and signs out every other session while this one goes on with a new token', async () => {
    const borrower = await registerBorrower(system);
    const otherDevice = (await login(borrower.phone, PASSWORD)).body.token as string;
    const change = (body: object) => system.request('POST', '/api/user/password', { token: borrower.token, body });

    const wrong = await change({ currentPassword: 'not-my-password', newPassword: 'Kalamansi#2027' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'CURRENT_PASSWORD_WRONG', details: { fields: { currentPassword: expect.any(String) } } });
    const common = await change({ currentPassword: PASSWORD, newPassword: 'password123' });
    expect(common.status).toBe(400);
    expect(common.body.details.fields.newPassword).toBe('This password is too common');
    expect((await change({ currentPassword: PASSWORD, newPassword: '123' })).status).toBe(400);

    const changed = await change({ currentPassword: PASSWORD, newPassword: 'Kalamansi#2027' });
    expect(changed.status).toBe(200);
    expect((await profile(changed.body.token)).status).toBe(200);
    expect((await profile(borrower.token)).status).toBe(401);
    expect((await profile(otherDevice)).status).toBe(401);
    expect((await login(borrower.phone, PASSWORD)).status).toBe(401);
    expect((await login(borrower.phone, 'Kalamansi#2027')).status).toBe(200);
    const events = (await system.store.readStream(streams.member(borrower.id))).map((event) => event.type);
    expect(events).toContain('MemberPasswordChanged');
    // The hash only: the new password is nowhere in the log.
    expect(JSON.stringify(await system.store.readStream(streams.member(borrower.id)))).not.toContain('Kalamansi#2027');
  });
});

describe('forgot password', () => {
  it('answers a registered and an unknown number the same, texts a code to the registered one, and the code sets a new password', async () => {
    const borrower = await registerBorrower(system);
    const known = await system.request('POST', '/api/auth/password-reset/request', { body: { phone: borrower.phone } });
    const unknown = await system.request('POST', '/api/auth/password-reset/request', { body: { phone: uniquePhone() } });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(known.body).toEqual(unknown.body);
    const code = await resetCode(borrower);

    const confirm = (body: object) => system.request('POST', '/api/auth/password-reset/confirm', { body });
    const wrongCode = code === '000000' ? '111111' : '000000';
    const refused = await confirm({ phone: borrower.phone, code: wrongCode, newPassword: 'Mangga#Hinog2027' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('CODE_INVALID');
    // An unknown number is refused with the very same answer.
    expect((await confirm({ phone: uniquePhone(), code, newPassword: 'Mangga#Hinog2027' })).body).toEqual(refused.body);

    const reset = await confirm({ phone: borrower.phone, code, newPassword: 'Mangga#Hinog2027' });
    expect(reset.status).toBe(200);
    expect((await profile(borrower.token)).status).toBe(401);
    expect((await login(borrower.phone, 'Mangga#Hinog2027')).status).toBe(200);
    // Single use.
    expect((await confirm({ phone: borrower.phone, code, newPassword: 'Another#Pass2027' })).status).toBe(400);
  });

  it('is throttled per number, whether or not it is registered', async () => {
    const phone = uniquePhone();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await system.request('POST', '/api/auth/password-reset/request', { body: { phone } })).status);
    expect(statuses).toEqual([202, 202, 202, 429, 429]);
  });
});

describe('sign out everywhere (POST /api/auth/logout-everywhere)', () => {
  it('ends every session of the account at once', async () => {
    const borrower = await registerBorrower(system);
    const phoneSession = (await login(borrower.phone, PASSWORD)).body.token as string;
    const res = await system.request('POST', '/api/auth/logout-everywhere', { token: borrower.token });
    expect(res.status).toBe(200);
    expect((await profile(borrower.token)).status).toBe(401);
    expect((await profile(phoneSession)).status).toBe(401);
    expect((await login(borrower.phone, PASSWORD)).status).toBe(200);
  });
});

describe('proving the phone', () => {
  it('refuses a first loan application with PHONE_NOT_VERIFIED until the texted code confirms the number', async () => {
    const borrower = await registerBorrower(system);
    await verifyBorrower(system, borrower, { confirmPhone: false });
    expect((await profile(borrower.token)).body).toMatchObject({ verified: true, phoneVerified: false });
    const refused = await applyForLoan(borrower.token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('PHONE_NOT_VERIFIED');

    const sent = await system.request('POST', '/api/user/phone-verification', { token: borrower.token });
    expect(sent.status).toBe(202);
    expect(sent.body.sentTo).toMatch(/^\+63•+\d{4}$/);
    const code = await textedCode(system, borrower, /phone confirmation code is (\d{6})\b/);
    const wrong = await system.request('POST', '/api/user/phone-verification/confirm', { token: borrower.token, body: { code: code === '000000' ? '111111' : '000000' } });
    expect(wrong.status).toBe(400);
    const confirmed = await system.request('POST', '/api/user/phone-verification/confirm', { token: borrower.token, body: { code } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.phoneVerified).toBe(true);
    expect((await applyForLoan(borrower.token)).status).toBe(201);
    expect((await system.request('POST', '/api/user/phone-verification', { token: borrower.token })).body.code).toBe('PHONE_ALREADY_VERIFIED');
  });

  it('lets whoever confirms a number first claim it once its holder left it unconfirmed for 7 days', async () => {
    // Someone registered a number that is not theirs, 8 days ago, and never confirmed it.
    clockOffsetMs = -8 * DAY_MS;
    const squatter = await registerBorrower(system, 'Squatter');
    clockOffsetMs = 0;
    const owner = await system.request('POST', '/api/auth/register', { body: { phone: squatter.phone, password: 'Bayabas#Tama2026', fullName: 'Real Owner' } });
    expect(owner.status).toBe(201);
    const rightful: Borrower = { id: owner.body.user.id, phone: squatter.phone, token: owner.body.token };
    await confirmPhone(system, rightful);
    // The number signs in to the account that proved it; the squatter can no longer claim it.
    const signedIn = await login(squatter.phone, 'Bayabas#Tama2026');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.id).toBe(rightful.id);
    const squatterTries = await system.request('POST', '/api/user/phone-verification', { token: squatter.token });
    expect(squatterTries.status).toBe(409);
    expect(squatterTries.body.code).toBe('PHONE_TAKEN');
    // A confirmed number is never up for grabs again.
    expect((await system.request('POST', '/api/auth/register', { body: { phone: squatter.phone, password: 'Another#Pass2026', fullName: 'Late Comer' } })).status).toBe(409);
  });

  it('keeps a number registered less than 7 days ago for its holder', async () => {
    const holder = await registerBorrower(system);
    const again = await system.request('POST', '/api/auth/register', { body: { phone: holder.phone, password: 'Another#Pass2026', fullName: 'Someone Else' } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('ALREADY_REGISTERED');
  });
});

import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { streams } from '@honeylend/contracts';
import { startTestSystem, uniquePhone, type TestSystem } from '../testing/testSystem.js';
import { addBankAccount, disburse, registerBorrower, verifyBorrower } from '../testing/borrowers.js';
import { pngImage } from '../testing/images.js';
import { setApprovalSettings } from '../testing/approvals.js';
import { borrowerWithPendingLoan, createAdmin, pendingWithdrawal, superadminToken } from '../testing/admins.js';

let system: TestSystem;
let adminToken: string;
beforeAll(async () => {
  system = await startTestSystem();
  adminToken = (await createAdmin(system, await superadminToken(system))).token;
});
afterAll(() => system?.stop());

const e164 = (local: string) => `+63${local.slice(1)}`;
const put = (id: string, body: unknown, token = adminToken) => system.request('PUT', `/api/admin/users/${id}`, { token, body });

describe('admin members: list and search', () => {
  it('pages the members newest first with the total, and finds them by name, email and phone in any format', async () => {
    const tag = `Tala${Date.now() % 100000}`;
    const first = await registerBorrower(system, `${tag} Reyes`);
    const second = await registerBorrower(system, `${tag} Cruz`);
    await system.request('PUT', '/api/user/profile', { token: second.token, body: { email: `${tag.toLowerCase()}@mail.test` } });

    const byName = await system.request('GET', `/api/admin/users?search=${tag}&pageSize=1`, { token: adminToken });
    expect(byName.status).toBe(200);
    expect(byName.body).toMatchObject({ total: 2, page: 1, pageSize: 1 });
    expect(byName.body.items.map((m: any) => m.id)).toEqual([second.id]);
    const page2 = await system.request('GET', `/api/admin/users?search=${tag}&pageSize=1&page=2`, { token: adminToken });
    expect(page2.body.items.map((m: any) => m.id)).toEqual([first.id]);

    const reversedWords = await system.request('GET', `/api/admin/users?search=${encodeURIComponent(`reyes ${tag}`)}`, { token: adminToken });
    expect(reversedWords.body.items.map((m: any) => m.id)).toEqual([first.id]);
    const byEmail = await system.request('GET', `/api/admin/users?search=${tag.toLowerCase()}@mail`, { token: adminToken });
    expect(byEmail.body.items.map((m: any) => m.id)).toEqual([second.id]);

    const local = `0${first.phone.slice(3)}`;
    for (const format of [local, first.phone, first.phone.slice(1), `${local.slice(0, 4)} ${local.slice(4, 7)} ${local.slice(7)}`, local.slice(-7)]) {
      const res = await system.request('GET', `/api/admin/users?search=${encodeURIComponent(format)}`, { token: adminToken });
      expect(
        res.body.items.map((m: any) => m.id),
        format,
      ).toEqual([first.id]);
    }
  });

  it('filters by status, and never answers a password, hash or OTP code (the OTP column is delivery status)', async () => {
    const borrower = await registerBorrower(system, 'Status Filter');
    await addBankAccount(system, borrower);
    await disburse(system, borrower, 500_000);
    await system.request('POST', '/api/withdrawals/otp', { token: borrower.token, body: { amount: 1000 } });
    expect((await put(borrower.id, { status: 'pending' })).status).toBe(200);
    const pending = await system.request('GET', '/api/admin/users?status=pending&pageSize=100', { token: adminToken });
    expect(pending.body.items.map((m: any) => m.id)).toContain(borrower.id);
    expect(pending.body.items.every((m: any) => m.status === 'pending')).toBe(true);
    const active = await system.request('GET', '/api/admin/users?status=active&pageSize=100', { token: adminToken });
    expect(active.body.items.map((m: any) => m.id)).not.toContain(borrower.id);

    // The worker texts the code a moment later; the column shows the delivery once it is recorded.
    const deadline = Date.now() + 5_000;
    let member = (await system.request('GET', `/api/admin/users/${borrower.id}`, { token: adminToken })).body;
    while (member.otp?.state !== 'sent' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      member = (await system.request('GET', `/api/admin/users/${borrower.id}`, { token: adminToken })).body;
    }
    expect(member.otp).toMatchObject({ state: 'sent', failures: 0, attemptsLeft: 5, lastSentAt: expect.any(String) });
    const text = JSON.stringify(pending.body) + JSON.stringify(member);
    expect(text).not.toMatch(/argon2|passwordHash|plainPassword|codeHash|"otpCode"/);
    const code = /withdrawal code is (\d{6})/.exec((await system.request('GET', '/api/dev/outbox', { token: borrower.token })).body[0].body)![1];
    expect(JSON.stringify(member)).not.toContain(code);
  });

  it('answers the list rules with messages, never a 500', async () => {
    for (const [query, field, message] of [
      ['status=closed', 'status', 'Status must be all, active, pending or suspended'],
      ['page=0', 'page', 'Page must be a whole number from 1'],
      ['pageSize=500', 'pageSize', 'Page size must be a whole number from 1 to 100'],
      ['page=abc', 'page', 'Page must be a whole number from 1'],
      [`search=${'x'.repeat(101)}`, 'search', 'Search for at most 100 characters'],
    ]) {
      const res = await system.request('GET', `/api/admin/users?${query}`, { token: adminToken });
      expect(res.status, query).toBe(400);
      expect(res.body.details.fields[field]).toBe(message);
    }
  });
});

describe('admin members: create and edit', () => {
  it('creates a member through POST /api/auth/register with a staff token, as an admin action without a member token', async () => {
    const phone = uniquePhone();
    const res = await system.request('POST', '/api/auth/register', { token: adminToken, body: { phone, password: 'Sampaguita#2026', fullName: 'Walk-in Borrower' } });
    expect(res.status).toBe(201);
    expect(res.body.token).toBeUndefined();
    expect(res.body.user).toMatchObject({ phone: e164(phone), fullName: 'Walk-in Borrower', status: 'active', otp: null });
    const [registered] = await system.store.readStream(streams.member(res.body.user.id));
    expect(registered.data.registeredBy).toBe('admin');
    expect(registered.metadata.actorId).not.toBe('self');
    const again = await system.request('POST', '/api/admin/users', { token: adminToken, body: { phone, password: 'Sampaguita#2026', fullName: 'Walk-in Borrower' } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'ALREADY_REGISTERED', alreadyRegistered: true });
    const login = await system.request('POST', '/api/auth/login', { body: { phone, password: 'Sampaguita#2026' } });
    expect(login.status).toBe(200);
  });

  it('edits profile fields, credit score and status in one save, recording only what changed', async () => {
    const borrower = await registerBorrower(system, 'Edit Me');
    const res = await put(borrower.id, {
      fullName: 'Edited Name',
      address: '45 Bonifacio Street, Cebu City',
      monthlySalary: 42000.5,
      bankName: 'UnionBank',
      bankAccountNumber: '1098-7654-3210',
      creditScore: 720,
      status: 'active',
      balance: 0,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ fullName: 'Edited Name', monthlySalary: 42000.5, bankAccountNumber: '109876543210', creditScore: 720, creditTier: { label: 'Good Credit' }, status: 'active' });
    const types = (await system.store.readStream(streams.member(borrower.id))).map((e) => e.type);
    expect(types).toEqual(['MemberRegistered', 'ConsentGiven', 'MemberProfileUpdated', 'MemberCreditScoreChanged']);
    const unchanged = await put(borrower.id, { fullName: 'Edited Name', creditScore: '720' });
    expect(unchanged.status).toBe(200);
    expect((await system.store.readStream(streams.member(borrower.id))).length).toBe(4);
  });

  it('answers every admin form rule with the spec message', async () => {
    const borrower = await registerBorrower(system, 'Rules');
    const cases: [Record<string, unknown>, string, string][] = [
      [{ fullName: 'M' }, 'fullName', 'Full name is required'],
      [{ email: 'not-an-email' }, 'email', 'Valid email is required'],
      [{ address: 'Short' }, 'address', 'Address is required'],
      [{ countryOfWork: 'P' }, 'countryOfWork', 'Country of work is required'],
      [{ monthlySalary: -1 }, 'monthlySalary', 'Monthly salary is required'],
      [{ referenceName: 'J' }, 'referenceName', 'Reference name is required'],
      [{ referencePhone: '0917' }, 'referencePhone', 'Reference phone is required'],
      [{ bankName: '' }, 'bankName', 'Bank name is required'],
      [{ bankAccountNumber: '12345' }, 'bankAccountNumber', 'Account number is required'],
      [{ phone: '0917' }, 'phone', 'Phone number is required'],
      [{ status: 'banned' }, 'status', 'Status must be active, pending or suspended'],
      [{ creditScore: 299 }, 'creditScore', 'Credit score must be between 300 and 850'],
      [{ creditScore: 851 }, 'creditScore', 'Credit score must be between 300 and 850'],
      [{ creditScore: 'high' }, 'creditScore', 'Credit score must be between 300 and 850'],
      [{ idFrontUrl: 'https://evil.test/id.png' }, 'idFrontUrl', 'Upload the document first, then send the url it answered'],
    ];
    for (const [body, field, message] of cases) {
      const res = await put(borrower.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details.fields[field], JSON.stringify(body)).toBe(message);
    }
    // Registration and its consent to the privacy notice, and nothing from the refused edits.
    expect((await system.store.readStream(streams.member(borrower.id))).map((event) => event.type)).toEqual(['MemberRegistered', 'ConsentGiven']);
  });

  it('refuses to set a password, an OTP code or a balance through an edit, pointing to the right action', async () => {
    const borrower = await registerBorrower(system, 'No Secrets');
    const password = await put(borrower.id, { plainPassword: 'hunter22' });
    expect(password.status).toBe(400);
    expect(password.body).toMatchObject({ code: 'FIELD_NOT_EDITABLE', details: { fields: { plainPassword: expect.stringContaining('password-reset') } } });
    const otp = await put(borrower.id, { otpCode: '123456' });
    expect(otp.body.details.fields.otpCode).toBe('OTP codes are made by the server and texted to the member; nobody can set or read them.');
    const balance = await put(borrower.id, { balance: 1_000_000 });
    expect(balance.body.details.fields.balance).toContain('balance-adjustments');
  });

  it('moves a member to a new phone number (the main admin only): the new one signs in, the old one is free for someone else, a taken one is refused', async () => {
    const mainToken = await superadminToken(system);
    const borrower = await registerBorrower(system, 'Phone Mover');
    const other = await registerBorrower(system, 'Phone Owner');
    const taken = await put(borrower.id, { phone: other.phone }, mainToken);
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'PHONE_TAKEN', message: 'Another account already uses this phone number' });
    const newPhone = uniquePhone();
    const byOfficer = await put(borrower.id, { phone: newPhone });
    expect(byOfficer.status).toBe(403);
    expect(byOfficer.body.code).toBe('MAIN_ADMIN_ONLY');
    // Four eyes: the main admin's change waits for a second admin; until then the old number is the account's.
    const requested = await put(borrower.id, { phone: newPhone }, mainToken);
    expect(requested.status).toBe(202);
    expect(requested.body.status).toBe('awaiting_approval');
    expect((await system.request('POST', '/api/auth/login', { body: { phone: newPhone, password: 'Sampaguita#2026' } })).status).toBe(401);
    const approved = await system.request('POST', `/api/admin/approvals/${requested.body.approvalId}/approve`, { token: adminToken });
    expect(approved.body.execution).toMatchObject({ outcome: 'done' });
    const moved = await system.request('GET', `/api/admin/users/${borrower.id}`, { token: adminToken });
    expect(moved.body.phone).toBe(e164(newPhone));
    expect((await system.request('POST', '/api/auth/login', { body: { phone: newPhone, password: 'Sampaguita#2026' } })).status).toBe(200);
    expect((await system.request('POST', '/api/auth/login', { body: { phone: borrower.phone, password: 'Sampaguita#2026' } })).status).toBe(401);
    const reuse = await system.request('POST', '/api/auth/register', { body: { phone: borrower.phone, password: 'Sampaguita#2026', fullName: 'New Owner' } });
    expect(reuse.status).toBe(201);
    const found = await system.request('GET', `/api/admin/users?search=${newPhone}`, { token: adminToken });
    expect(found.body.items.map((m: any) => m.id)).toEqual([borrower.id]);
  });

  it("uploads a member's identity documents for them, and sets uploaded ones by url", async () => {
    const borrower = await registerBorrower(system, 'Docs By Admin');
    const form = new FormData();
    form.append('file', new Blob([pngImage()], { type: 'image/png' }), 'front.png');
    const upload = await fetch(`${system.baseUrl}/api/admin/users/${borrower.id}/documents/idFront`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${adminToken}` } });
    expect(upload.status).toBe(201);
    const member = (await upload.json()) as { idFrontUrl: string };
    expect(member.idFrontUrl).toMatch(/^\/api\/files\/[0-9a-f-]{36}\?expires=/);
    const image = await fetch(system.baseUrl + member.idFrontUrl);
    expect(image.status).toBe(200);

    const own = await system.upload('/api/upload', { bytes: pngImage(), name: 'back.png', type: 'image/png' }, borrower.token);
    const set = await put(borrower.id, { idBackUrl: own.body.url });
    expect(set.status).toBe(200);
    expect(set.body.idBackUrl).toContain(own.body.fileId);

    const script = new FormData();
    script.append('file', new Blob([Buffer.from('#!/bin/sh\n')], { type: 'image/png' }), 'x.png');
    const refused = await fetch(`${system.baseUrl}/api/admin/users/${borrower.id}/documents/selfie`, { method: 'POST', body: script, headers: { Authorization: `Bearer ${adminToken}` } });
    expect(refused.status).toBe(415);
    const unknownKind = await fetch(`${system.baseUrl}/api/admin/users/${borrower.id}/documents/passport`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${adminToken}` } });
    expect(unknownKind.status).toBe(404);
  });

  it('answers 404 for a member that does not exist', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await system.request('GET', `/api/admin/users/${missing}`, { token: adminToken })).status).toBe(404);
    expect((await put(missing, { fullName: 'Nobody Here' })).status).toBe(404);
    expect((await system.request('GET', '/api/admin/users/not-a-uuid', { token: adminToken })).status).toBe(404);
  });
});

describe('admin members: suspension, password reset, balance', () => {
  it("refuses a suspended member's existing token on the very next request with the spec's 403, and ends their socket", async () => {
    const borrower = await registerBorrower(system, 'To Suspend');
    const socket: Socket = io(system.baseUrl, { path: '/socket.io', transports: ['websocket'], auth: { token: borrower.token }, reconnection: false, forceNew: true });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const revoked = new Promise<unknown>((resolve) => socket.once('session.revoked', resolve));
      expect((await put(borrower.id, { status: 'suspended' })).body.status).toBe('suspended');
      const next = await system.request('GET', '/api/user/profile', { token: borrower.token });
      expect(next.status).toBe(403);
      expect(next.body).toMatchObject({ accountStatus: 'suspended', message: 'Your account has been suspended. Please contact support.' });
      expect(await revoked).toEqual({ reason: 'suspended' });
      const login = await system.request('POST', '/api/auth/login', { body: { phone: borrower.phone, password: 'Sampaguita#2026' } });
      expect(login.status).toBe(403);

      // Reactivated, the member signs in again; the token from before the suspension stays dead.
      expect((await put(borrower.id, { status: 'active' })).body.status).toBe('active');
      expect((await system.request('GET', '/api/user/profile', { token: borrower.token })).status).toBe(401);
      const again = await system.request('POST', '/api/auth/login', { body: { phone: borrower.phone, password: 'Sampaguita#2026' } });
      expect((await system.request('GET', '/api/user/profile', { token: again.body.token })).status).toBe(200);
    } finally {
      socket.disconnect();
    }
  });

  it('posts signed balance adjustments with a reason, never below zero', async () => {
    // The adjustment's own rules, with the main admin's setting that adjustments need no second admin
    // (four eyes is covered in approvals.int.spec.ts); switched back on at the end.
    const mainToken = await superadminToken(system);
    await setApprovalSettings(system, mainToken, { required: { balance_adjustment: false } });
    onTestFinished(() => setApprovalSettings(system, mainToken, { required: { balance_adjustment: true } }));
    const borrower = await registerBorrower(system, 'Adjusted');
    const path = `/api/admin/users/${borrower.id}/balance-adjustments`;
    const credit = await system.request('POST', path, { token: adminToken, body: { amount: 1500.25, reason: 'Goodwill credit for a late payout' } });
    expect(credit.status).toBe(201);
    expect(credit.body).toMatchObject({ adjustment: { amount: 1500.25, balanceAfter: 1500.25 }, user: { balance: 1500.25 } });
    const debit = await system.request('POST', path, { token: adminToken, body: { amount: '-500.25', reason: 'Reversal of duplicate credit' } });
    expect(debit.body.user.balance).toBe(1000);
    const tooMuch = await system.request('POST', path, { token: adminToken, body: { amount: -1000.01, reason: 'Would overdraw the wallet' } });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body).toMatchObject({ code: 'BALANCE_BELOW_ZERO', message: 'This adjustment would take the balance below zero (the available balance is ₱1,000.00).' });
    for (const [body, field, message] of [
      [{ amount: 0, reason: 'Nothing at all' }, 'amount', 'Enter a non-zero amount in pesos, e.g. 500 or -250.50'],
      [{ amount: 'lots', reason: 'Nothing at all' }, 'amount', 'Enter a non-zero amount in pesos, e.g. 500 or -250.50'],
      [{ amount: 10.001, reason: 'Nothing at all' }, 'amount', 'Amounts have at most two decimals'],
      [{ amount: 100, reason: 'oops' }, 'reason', 'Give a reason of at least 5 characters'],
      [{ amount: 100 }, 'reason', 'Give a reason of at least 5 characters'],
    ] as const) {
      const res = await system.request('POST', path, { token: adminToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details.fields[field]).toBe(message);
    }
    const events = (await system.store.readStream(streams.member(borrower.id))).filter((e) => e.type === 'BalanceAdjusted');
    expect(events.map((e) => e.data.amountCentavos)).toEqual([150_025, -50_025]);
    expect(events[0].data.reason).toBe('Goodwill credit for a late payout');
    const profile = await system.request('GET', '/api/user/profile', { token: borrower.token });
    expect(profile.body.balance).toBe(1000);
  });
});

describe('admin members: closing an account', () => {
  it('is refused while a loan is open, a withdrawal is pending or money is in the wallet', async () => {
    const { borrower, loan } = await borrowerWithPendingLoan(system, 'Open Loan');
    const withLoan = await system.request('DELETE', `/api/admin/users/${borrower.id}`, { token: adminToken });
    expect(withLoan.status).toBe(409);
    expect(withLoan.body.code).toBe('MEMBER_HAS_OPEN_LOAN');
    expect((await system.request('PUT', `/api/admin/loans/${loan.id}`, { token: adminToken, body: { status: 'denied' } })).status).toBe(200);

    await disburse(system, borrower, 300_000);
    await pendingWithdrawal(system, borrower, 3000);
    const withWithdrawal = await system.request('DELETE', `/api/admin/users/${borrower.id}`, { token: adminToken });
    expect(withWithdrawal.status).toBe(409);
    expect(withWithdrawal.body.code).toBe('MEMBER_HAS_PENDING_WITHDRAWAL');
  });

  it('with money in the wallet answers 409 naming the balance', async () => {
    const borrower = await registerBorrower(system, 'Has Money');
    await disburse(system, borrower, 250_000);
    const res = await system.request('DELETE', `/api/admin/users/${borrower.id}`, { token: adminToken });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'MEMBER_HAS_BALANCE', message: 'This member still has ₱2,500.00 in their wallet. Pay it out or post a balance adjustment first.' });
  });

  it('closes the account: gone from lists and sessions, the phone free again, the events kept for audit', async () => {
    const borrower = await registerBorrower(system, 'Leaving Member');
    const res = await system.request('DELETE', `/api/admin/users/${borrower.id}`, { token: adminToken });
    expect(res.status).toBe(200);
    expect((await system.request('GET', `/api/admin/users/${borrower.id}`, { token: adminToken })).status).toBe(404);
    const list = await system.request('GET', '/api/admin/users?search=Leaving%20Member', { token: adminToken });
    expect(list.body.total).toBe(0);
    expect((await system.request('GET', '/api/user/profile', { token: borrower.token })).status).toBe(401);
    expect((await system.request('POST', '/api/auth/login', { body: { phone: borrower.phone, password: 'Sampaguita#2026' } })).status).toBe(401);
    const again = await system.request('POST', '/api/auth/register', { body: { phone: borrower.phone, password: 'Sampaguita#2026', fullName: 'Coming Back' } });
    expect(again.status).toBe(201);
    expect(again.body.user.id).not.toBe(borrower.id);
    const history = (await system.store.readStream(streams.member(borrower.id))).map((e) => e.type);
    expect(history).toEqual(['MemberRegistered', 'ConsentGiven', 'MemberDeleted']);
    // A retried deletion changes nothing and still succeeds.
    expect((await system.request('DELETE', `/api/admin/users/${borrower.id}`, { token: adminToken })).status).toBe(200);
  });
});

describe('admin members: who may', () => {
  it('answers 401 without a token and 403 with the spec message for a borrower on every member route', async () => {
    const borrower = await registerBorrower(system, 'Curious Borrower');
    const target = borrower.id;
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/users'],
      ['GET', `/api/admin/users/${target}`],
      ['POST', '/api/admin/users', { phone: uniquePhone(), password: 'Sampaguita#2026', fullName: 'Sneaky' }],
      ['PUT', `/api/admin/users/${target}`, { creditScore: 850 }],
      ['DELETE', `/api/admin/users/${target}`],
      ['POST', `/api/admin/users/${target}/password-reset`, { password: 'Taken-Over#1' }],
      ['POST', `/api/admin/users/${target}/balance-adjustments`, { amount: 1_000_000, reason: 'Free money please' }],
    ];
    for (const [method, path, body] of routes) {
      const anonymous = await system.request(method, path, { body });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      const asBorrower = await system.request(method, path, { body, token: borrower.token });
      expect(asBorrower.status, `${method} ${path}`).toBe(403);
      expect(asBorrower.body.message).toBe("Access Denied - You don't have permission to access the management panel.");
    }
    const profile = await system.request('GET', '/api/user/profile', { token: borrower.token });
    expect(profile.body).toMatchObject({ balance: 0, creditScore: 500 });
  });

  it('keeps a borrower self-registration working when no staff token is sent', async () => {
    const borrower = await registerBorrower(system, 'Plain Signup');
    await verifyBorrower(system, borrower);
    expect(borrower.token).toEqual(expect.any(String));
  });
});

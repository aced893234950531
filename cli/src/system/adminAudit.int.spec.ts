import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '@honeylend/contracts';
import { allProjections, rebuildReadModels } from '@honeylend/projections';
import { REDIS_URL, startTestSystem, type TestSystem } from '../testing/testSystem.js';
import { disburse, registerBorrower } from '../testing/borrowers.js';
import { approvedBySecondAdmin } from '../testing/approvals.js';
import { borrowerWithPendingLoan, createAdmin, pendingWithdrawal, superadminToken, type TestAdmin, approveAndAccept } from '../testing/admins.js';

let system: TestSystem;
let officer: TestAdmin;
beforeAll(async () => {
  system = await startTestSystem();
  officer = await createAdmin(system, await superadminToken(system));
});
afterAll(() => system?.stop());

describe('audit', () => {
  it("answers a stream's history in order, with the acting admin and address, credentials redacted", async () => {
    const borrower = await registerBorrower(system, 'Audited Member');
    expect((await system.request('POST', `/api/admin/users/${borrower.id}/password-reset`, { token: officer.token })).status).toBe(202);
    await system.request('PUT', `/api/admin/users/${borrower.id}`, { token: officer.token, body: { status: 'suspended' } });
    const res = await system.request('GET', `/api/admin/audit/${streams.member(borrower.id)}`, { token: officer.token });
    expect(res.status).toBe(200);
    expect(res.body.stream).toBe(streams.member(borrower.id));
    expect(res.body.events.map((e: any) => e.type)).toEqual(['MemberRegistered', 'ConsentGiven', 'MemberPasswordResetStarted', 'MemberNotified', 'MemberStatusChanged']);
    expect(res.body.events.map((e: any) => e.revision)).toEqual([0, 1, 2, 3, 4]);
    expect(res.body.events[0]).toMatchObject({ data: { passwordHash: '[redacted]', registeredBy: 'self' }, metadata: { actorId: 'self', ip: '127.0.0.1' } });
    // The member's own consent to the privacy notice, given with the registration.
    expect(res.body.events[1]).toMatchObject({ type: 'ConsentGiven', metadata: { actorId: borrower.id } });
    expect(res.body.events[2]).toMatchObject({ data: { startedBy: officer.id }, metadata: { actorId: officer.id, ip: '127.0.0.1', correlationId: expect.any(String) } });
    expect(res.body.events[4]).toMatchObject({ data: { from: 'active', to: 'suspended' }, metadata: { actorId: officer.id }, createdAt: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toContain('argon2');
    const admin = await system.request('GET', `/api/admin/audit/${streams.admin(officer.id)}`, { token: officer.token });
    expect(admin.body.events[0].data.passwordHash).toBe('[redacted]');
    const phone = await system.request('GET', `/api/admin/audit/${encodeURIComponent(streams.phone(borrower.phone))}`, { token: officer.token });
    expect(phone.body.events[0].type).toBe('PhoneReserved');
  });

  it('answers 404 for an empty stream and 400 for a name that cannot be one', async () => {
    expect((await system.request('GET', '/api/admin/audit/member-00000000-0000-4000-8000-000000000000', { token: officer.token })).status).toBe(404);
    const bad = await system.request('GET', `/api/admin/audit/${encodeURIComponent('no such stream')}`, { token: officer.token });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Name a stream, e.g. member-<id>');
  });

  it('pages through the global log with from and limit, without a gap or a repeat', async () => {
    const seen: number[] = [];
    let from = 0;
    for (;;) {
      const res = await system.request('GET', `/api/admin/events?from=${from}&limit=7`, { token: officer.token });
      expect(res.status).toBe(200);
      seen.push(...res.body.events.map((e: any) => e.position));
      if (res.body.next === null) break;
      from = res.body.next;
    }
    const all = await system.store.readAll({ limit: 100_000 });
    expect(seen).toEqual(all.map((e) => e.position));
    const firstPage = await system.request('GET', '/api/admin/events', { token: officer.token });
    expect(firstPage.body.events.length).toBe(Math.min(100, all.length));
    expect(JSON.stringify(firstPage.body)).not.toContain('argon2');
    for (const [query, message] of [
      ['from=-1', 'from is a position: a whole number from 0'],
      ['limit=0', 'limit is a whole number from 1 to 1000'],
      ['limit=1001', 'limit is a whole number from 1 to 1000'],
      ['limit=ten', 'limit is a whole number from 1 to 1000'],
    ]) {
      const res = await system.request('GET', `/api/admin/events?${query}`, { token: officer.token });
      expect(res.status, query).toBe(400);
      expect(res.body.message).toBe(message);
    }
  });

  it('answers 401 without a token and 403 for a borrower', async () => {
    const borrower = await registerBorrower(system, 'Nosy Borrower');
    for (const path of [`/api/admin/audit/${streams.member(borrower.id)}`, '/api/admin/events']) {
      expect((await system.request('GET', path)).status).toBe(401);
      expect((await system.request('GET', path, { token: borrower.token })).body.code).toBe('ACCESS_DENIED');
    }
  });
});

describe('notifications from an admin', () => {
  it('reaches the member in the app and by SMS, recorded with the admin as actor', async () => {
    const borrower = await registerBorrower(system, 'Notified Member');
    const res = await system.request('POST', '/api/admin/notifications', {
      token: officer.token,
      body: { userId: borrower.id, title: 'Documents received', message: 'We received your documents and are reviewing them.', type: 'loan_update' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'Documents received', type: 'loan_update' });
    const mine = await system.request('GET', '/api/notifications', { token: borrower.token });
    expect(mine.body[0]).toMatchObject({ title: 'Documents received', message: 'We received your documents and are reviewing them.' });
    const deadline = Date.now() + 5_000;
    let texts: { body: string }[] = [];
    while (Date.now() < deadline) {
      texts = (await system.request('GET', '/api/dev/outbox', { token: borrower.token })).body;
      if (texts.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(texts[0].body).toBe('Honeylend: Documents received — We received your documents and are reviewing them.');
    const [notified] = (await system.store.readStream(streams.member(borrower.id))).filter((e) => e.type === 'MemberNotified');
    expect(notified.metadata).toMatchObject({ actorId: officer.id, ip: '127.0.0.1' });
  });

  it('answers bad input with field messages, an unknown member with 404, and a borrower with 403', async () => {
    const borrower = await registerBorrower(system, 'Notify Rules');
    for (const [body, field, message] of [
      [{ title: 'Hello', message: 'Hi there' }, 'userId', 'Choose the member to notify'],
      [{ userId: borrower.id, message: 'Hi there' }, 'title', 'Enter a title'],
      [{ userId: borrower.id, title: 'Hello', message: '' }, 'message', 'Enter a message'],
      [{ userId: borrower.id, title: 'Hello', message: 'Hi', type: 'spam' }, 'type', 'Type must be one of loan_update, withdrawal_update, account, general'],
    ] as const) {
      const res = await system.request('POST', '/api/admin/notifications', { token: officer.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details.fields[field]).toBe(message);
    }
    const unknown = await system.request('POST', '/api/admin/notifications', { token: officer.token, body: { userId: '00000000-0000-4000-8000-000000000000', title: 'Hello', message: 'Hi' } });
    expect(unknown.status).toBe(404);
    const body = { userId: borrower.id, title: 'Hello', message: 'Hi' };
    expect((await system.request('POST', '/api/admin/notifications', { body })).status).toBe(401);
    expect((await system.request('POST', '/api/admin/notifications', { body, token: borrower.token })).status).toBe(403);
  });
});

describe('replay after admin work', () => {
  it('rebuilds read models (lists, search, stats, settings) equal to the live ones', async () => {
    const { borrower, loan } = await borrowerWithPendingLoan(system, 'Replay Borrower');
    await approveAndAccept(system, officer.token, borrower.token, loan.id);
    await system.request('PUT', `/api/admin/users/${borrower.id}`, { token: officer.token, body: { creditScore: 640, status: 'pending' } });
    const withdrawal = await pendingWithdrawal(system, borrower, 1200);
    await system.request('PUT', `/api/admin/withdrawals/${withdrawal.id}`, { token: officer.token, body: { status: 'rejected' } });
    // Four eyes: the officer's adjustments run once the main admin approves them (the approvals' read model is replayed too).
    const main = await superadminToken(system);
    await approvedBySecondAdmin(system, await system.request('POST', `/api/admin/users/${borrower.id}/balance-adjustments`, { token: officer.token, body: { amount: -500, reason: 'Correction for replay' } }), main);
    const leaving = await registerBorrower(system, 'Replay Leaver');
    await disburse(system, leaving, 100_000);
    await approvedBySecondAdmin(system, await system.request('POST', `/api/admin/users/${leaving.id}/balance-adjustments`, { token: officer.token, body: { amount: -1000, reason: 'Paid out in cash' } }), main);
    // And one left waiting, and one rejected: both are read models a replay must rebuild.
    await system.request('POST', `/api/admin/users/${borrower.id}/balance-adjustments`, { token: officer.token, body: { amount: 100, reason: 'Left waiting for approval' } });
    const refused = await system.request('POST', `/api/admin/users/${borrower.id}/balance-adjustments`, { token: officer.token, body: { amount: 200, reason: 'To be rejected' } });
    expect((await system.request('POST', `/api/admin/approvals/${refused.body.approvalId}/reject`, { token: main, body: { reason: 'No ticket for it' } })).status).toBe(200);
    await system.request('DELETE', `/api/admin/users/${leaving.id}`, { token: officer.token });
    await system.request('POST', '/api/admin/loan-statuses', { token: officer.token, body: { status: 'replayed' } });
    const { borrower: other, loan: deletedLoan } = await borrowerWithPendingLoan(system, 'Replay Deleted Loan');
    await system.request('DELETE', `/api/admin/loans/${deletedLoan.id}`, { token: officer.token });
    expect(other.id).toEqual(expect.any(String));

    const snapshot = async () => {
      const keys = (await system.redis.keys(`${system.keyPrefix}rm:*`)).filter((k) => k !== `${system.keyPrefix}rm:changes`).sort();
      const out: Record<string, unknown> = {};
      for (const key of keys) {
        const type = await system.redis.type(key);
        out[key] =
          type === 'string'
            ? await system.redis.get(key)
            : type === 'hash'
              ? await system.redis.hgetall(key)
              : type === 'zset'
                ? await system.redis.zrange(key, 0, -1, 'WITHSCORES')
                : type === 'list'
                  ? await system.redis.lrange(key, 0, -1)
                  : type;
      }
      return out;
    };
    const live = await snapshot();
    expect(Object.keys(live).some((k) => k.endsWith('rm:loans:stats'))).toBe(true);
    // The charts' counters (daily-stats projection) are among the keys compared.
    for (const suffix of ['rm:stats:daily', 'rm:stats:loan-amount-by-status', `rm:stats:loan:${loan.id}`]) expect(Object.keys(live)).toContain(`${system.keyPrefix}${suffix}`);
    const redis = new Redis(REDIS_URL);
    try {
      await rebuildReadModels({ store: system.store, redis, keyPrefix: system.keyPrefix, projections: allProjections, logger: { info() {}, warn() {}, error() {} } });
    } finally {
      redis.disconnect();
    }
    expect(await snapshot()).toEqual(live);
  });
});

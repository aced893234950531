import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { streams } from '@honeylend/contracts';
import { createLogger, startApiServer } from '@honeylend/command-api';
import { REDIS_URL, startTestSystem, type TestSystem } from '../testing/testSystem.js';
import { registerBorrower, type Borrower } from '../testing/borrowers.js';
import { borrowerWithPendingLoan, superadminToken } from '../testing/admins.js';
import { openSocket, socketConnected, until } from '../testing/sockets.js';

/*
 * Issue 17, item 5 (honest screens), the API side: the notification inbox (read one, read all —
 * events on the member's notifications stream, pushed live to every open device) and the
 * borrower's cancellation of their own application while it is under review.
 */
let system: TestSystem;
let admin: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  system = await startTestSystem();
  admin = await superadminToken(system);
}, 120_000);
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await system?.stop();
});

const notify = async (memberId: string, title: string) => {
  const res = await system.request('POST', '/api/admin/notifications', { token: admin, body: { userId: memberId, title, message: `${title}: details in the app` } });
  expect(res.status).toBe(201);
  return res.body.id as string;
};
const inbox = async (borrower: Borrower) => (await system.request('GET', '/api/notifications', { token: borrower.token })).body as { id: string; read: boolean; version: number }[];
const eventsOf = async (stream: string) => (await system.store.readStream(stream)).map((event) => ({ type: event.type, data: event.data }));

describe('the notification inbox', () => {
  it('marks one of the member’s own notifications read: an event, answered read, and pushed to their other device', async () => {
    const borrower = await registerBorrower(system, 'Lorna Dizon');
    const first = await notify(borrower.id, 'Documents received');
    const second = await notify(borrower.id, 'Profile checked');
    expect((await inbox(borrower)).filter((n) => !n.read)).toHaveLength(2);

    // A second device of the same member hears the change.
    const other = openSocket(system.baseUrl, { token: borrower.token });
    sockets.push(other);
    await socketConnected(other);
    const pushed: { doc: { id: string; read: boolean } }[] = [];
    other.on('notification.updated', (message) => pushed.push(message));

    const read = await system.request('POST', `/api/notifications/${first}/read`, { token: borrower.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: first, read: true });
    expect(read.body).not.toHaveProperty('memberId');
    const listed = await inbox(borrower);
    expect(listed.find((n) => n.id === first)).toMatchObject({ read: true, version: read.body.version });
    expect(listed.find((n) => n.id === second)).toMatchObject({ read: false });
    await until(() => pushed.length > 0, 5_000, 'the read pushed to the other device');
    expect(pushed[0].doc).toMatchObject({ id: first, read: true });
    expect(await eventsOf(streams.notifications(borrower.id))).toEqual([{ type: 'NotificationsRead', data: { memberId: borrower.id, notificationIds: [first], readAt: expect.any(String) } }]);

    // Again: the same answer, nothing more recorded.
    const again = await system.request('POST', `/api/notifications/${first}/read`, { token: borrower.token });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first, read: true });
    expect(await eventsOf(streams.notifications(borrower.id))).toHaveLength(1);
  });

  it('answers 404 for another member’s notification, an unknown id and one that is no id, recording nothing', async () => {
    const owner = await registerBorrower(system, 'Teodoro Agustin');
    const stranger = await registerBorrower(system, 'Rosalinda Mercado');
    const theirs = await notify(owner.id, 'Welcome');
    for (const id of [theirs, randomUUID(), 'not-an-id']) {
      const res = await system.request('POST', `/api/notifications/${id}/read`, { token: stranger.token });
      expect(res.status, id).toBe(404);
      expect(res.body.code, id).toBe('NOTIFICATION_NOT_FOUND');
    }
    expect(await eventsOf(streams.notifications(stranger.id))).toEqual([]);
    expect((await inbox(owner)).find((n) => n.id === theirs)).toMatchObject({ read: false });
    // Staff and the anonymous have no inbox here.
    expect((await system.request('POST', `/api/notifications/${theirs}/read`, { token: admin })).status).toBe(403);
    expect((await system.request('POST', '/api/notifications/read-all', {})).status).toBe(401);
  });

  it('reads all at once, idempotently: the second call marks nothing and records nothing', async () => {
    const borrower = await registerBorrower(system, 'Ernesto Villanueva');
    const ids = [await notify(borrower.id, 'One'), await notify(borrower.id, 'Two'), await notify(borrower.id, 'Three')];
    await system.request('POST', `/api/notifications/${ids[1]}/read`, { token: borrower.token });

    const all = await system.request('POST', '/api/notifications/read-all', { token: borrower.token });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ read: 2, unread: 0 });
    expect((await inbox(borrower)).every((n) => n.read)).toBe(true);
    const recorded = await eventsOf(streams.notifications(borrower.id));
    expect(recorded.map((event) => [...(event.data.notificationIds as string[])].sort())).toEqual([[ids[1]], [ids[0], ids[2]].sort()]);

    const again = await system.request('POST', '/api/notifications/read-all', { token: borrower.token });
    expect(again.body).toEqual({ read: 0, unread: 0 });
    expect(await eventsOf(streams.notifications(borrower.id))).toHaveLength(2);

    // A new one afterwards is unread; read-all reads only it.
    const later = await notify(borrower.id, 'Four');
    expect((await inbox(borrower)).filter((n) => !n.read).map((n) => n.id)).toEqual([later]);
    expect((await system.request('POST', '/api/notifications/read-all', { token: borrower.token })).body).toEqual({ read: 1, unread: 0 });
  });
});

describe('cancelling an application', () => {
  it('cancels the borrower’s own pending application: an event on the loan, the application closed, the admin sees it cancelled, and they may apply again', async () => {
    const { borrower, loan } = await borrowerWithPendingLoan(system, 'Perla Navarro');
    const res = await system.request('POST', `/api/loans/${loan.id}/cancellation`, { token: borrower.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: loan.id, status: 'cancelled' });
    const loanEvents = await eventsOf(streams.loan(loan.id));
    expect(loanEvents.at(-1)).toEqual({ type: 'LoanApplicationCancelled', data: { loanId: loan.id, memberId: borrower.id, from: 'pending', cancelledAt: expect.any(String) } });
    expect((await eventsOf(streams.member(borrower.id))).at(-1)).toMatchObject({ type: 'LoanApplicationClosed', data: { loanId: loan.id, closing: 'cancelled' } });
    const seen = await system.request('GET', `/api/admin/loans/${loan.id}`, { token: admin });
    expect(seen.body.status).toBe('cancelled');
    const listed = await system.request('GET', '/api/admin/loans?status=cancelled', { token: admin });
    expect(listed.body.items.map((item: { id: string }) => item.id)).toContain(loan.id);

    // Again (a retry, another device): the same answer, nothing more recorded.
    const again = await system.request('POST', `/api/loans/${loan.id}/cancellation`, { token: borrower.token });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('cancelled');
    expect(await eventsOf(streams.loan(loan.id))).toHaveLength(loanEvents.length);

    // The one "may apply again" rule: a cancelled application no longer blocks a new one.
    const next = await system.request('POST', '/api/loans', { token: borrower.token, body: { amount: 90_000, purpose: 'Tricycle repair', termMonths: 12 } });
    expect(next.status).toBe(201);
    // An admin cannot move a cancelled application on.
    expect((await system.request('PUT', `/api/admin/loans/${loan.id}`, { token: admin, body: { status: 'approved' } })).status).toBe(409);
  });

  it('refuses with 409 LOAN_NOT_CANCELLABLE once the application was approved or denied, and changes nothing', async () => {
    for (const status of ['approved', 'denied']) {
      const { borrower, loan } = await borrowerWithPendingLoan(system, `Virgilio ${status}`);
      expect((await system.request('PUT', `/api/admin/loans/${loan.id}`, { token: admin, body: { status } })).status).toBe(200);
      const before = await eventsOf(streams.loan(loan.id));
      const res = await system.request('POST', `/api/loans/${loan.id}/cancellation`, { token: borrower.token });
      expect(res.status, status).toBe(409);
      expect(res.body).toMatchObject({ code: 'LOAN_NOT_CANCELLABLE', message: expect.stringContaining('under review'), currentStatus: status });
      expect(await eventsOf(streams.loan(loan.id))).toEqual(before);
    }
  });

  it('answers 404 for another member’s application or an unknown one, and 403 for staff', async () => {
    const { loan } = await borrowerWithPendingLoan(system, 'Concepcion Ramos');
    const stranger = await registerBorrower(system, 'Gregorio Lim');
    for (const id of [loan.id, randomUUID(), 'LN-2026-000001']) {
      const res = await system.request('POST', `/api/loans/${id}/cancellation`, { token: stranger.token });
      expect(res.status, id).toBe(404);
      expect(res.body.code, id).toBe('LOAN_NOT_FOUND');
    }
    expect((await system.request('POST', `/api/loans/${loan.id}/cancellation`, { token: admin })).status).toBe(403);
    expect((await system.request('GET', `/api/admin/loans/${loan.id}`, { token: admin })).body.status).toBe('pending');
  });
});

describe('the loan estimate’s rate', () => {
  it('is the configured one, read from the server', async () => {
    expect((await system.request('GET', '/api/loans/terms')).body).toEqual({ monthlyRateBps: 250, monthlyRatePercent: 2.5 });
    const node = await startApiServer({
      store: system.store,
      redisUrl: REDIS_URL,
      keyPrefix: system.keyPrefix,
      jwtSecret: 'rate-node-secret-long-enough-for-hs256',
      uploadDir: system.uploadDir,
      port: 0,
      host: '127.0.0.1',
      env: { NODE_ENV: 'test' },
      logger: createLogger('test', { level: 'silent' }),
      monthlyRateBps: 310,
      auditTrustedKeys: system.api.deps.audit.trustedKeys,
    });
    try {
      const answer = await (await fetch(`http://127.0.0.1:${node.port}/api/loans/terms`)).json();
      expect(answer).toEqual({ monthlyRateBps: 310, monthlyRatePercent: 3.1 });
    } finally {
      await node.close();
    }
  });
});

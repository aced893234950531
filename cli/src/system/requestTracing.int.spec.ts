import { randomBytes, randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobKeys, QUEUE_NAMES, streams } from '@honeylend/contracts';
import { superadminToken } from '../testing/admins.js';
import { registerBorrower } from '../testing/borrowers.js';
import { REDIS_URL, startTestSystem, type TestSystem } from '../testing/testSystem.js';
import { eventually } from '../../../workers/src/testing/eventually.js';

let system: TestSystem;
const sockets: Socket[] = [];

beforeAll(async () => {
  // Debug: the most a log can hold (request headers and bodies, every projected event and pushed change).
  system = await startTestSystem({ logLevel: 'debug' });
});

afterAll(async () => {
  sockets.forEach((socket) => socket.close());
  await system?.stop();
});

type Line = Record<string, unknown>;
const lines = (): Line[] => system.logLines.map((line) => JSON.parse(line) as Line);

const secret = (name: string) => `${name}-${randomBytes(12).toString('hex')}`;

describe('logs', () => {
  it('never hold a password, code, token, secret or credential header a request carried, even at debug level where bodies and headers are logged', async () => {
    const values = {
      password: secret('password'),
      currentPassword: secret('current'),
      newPassword: secret('new'),
      otp: secret('otp'),
      code: secret('code'),
      token: secret('token'),
      secret: secret('secret'),
      apiKey: secret('apikey'),
      bearer: secret('bearer'),
      cookie: secret('cookie'),
      apiKeyHeader: secret('xapikey'),
      queryToken: secret('querytoken'),
      querySig: secret('querysig'),
    };
    const visible = `Visible ${randomUUID()}`;
    const login = await system.request('POST', '/api/auth/login', {
      body: { phone: '09170000000', password: values.password },
      headers: { Authorization: `Bearer ${values.bearer}`, Cookie: `session=${values.cookie}`, 'X-Api-Key': values.apiKeyHeader, 'X-Request-Id': 'redaction-login-1' },
    });
    expect(login.status).toBe(401);
    const other = await system.request('POST', `/api/user/password?token=${values.queryToken}&sig=${values.querySig}`, {
      body: {
        fullName: visible,
        currentPassword: values.currentPassword,
        newPassword: values.newPassword,
        otp: values.otp,
        code: values.code,
        token: values.token,
        secret: values.secret,
        apiKey: values.apiKey,
      },
      headers: { Authorization: `Bearer ${values.bearer}`, 'X-Request-Id': 'redaction-other-1' },
    });
    expect(other.status).toBeGreaterThanOrEqual(400);

    const logged = system.logLines.join('');
    // The lines are there, with the bodies and headers in them…
    const loginLine = lines().find((line) => line.requestId === 'redaction-login-1' && line.msg === 'request');
    expect(loginLine).toMatchObject({ route: '/api/auth/login', status: 401, body: { phone: '09170000000', password: '[redacted]' } });
    expect((loginLine!.headers as Line).authorization).toBe('[redacted]');
    expect((loginLine!.headers as Line).cookie).toBe('[redacted]');
    expect(logged).toContain(visible);
    // …and none of the secrets.
    for (const [name, value] of Object.entries(values)) expect(logged, `${name} reached the log`).not.toContain(value);
  });
});

describe('a request id', () => {
  it('follows one action from the HTTP line to its event, the projection, the socket push, the job and the SMS', async () => {
    const borrower = await registerBorrower(system, 'Gabriela Silang');
    const socket = io(system.baseUrl, { path: '/socket.io', transports: ['websocket'], auth: { token: borrower.token }, reconnection: false, forceNew: true });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const pushed = new Promise<{ doc: { id: string } }>((resolve) => socket.once('notification.created', resolve));
    const admin = await superadminToken(system);
    const requestId = `follow-${randomUUID()}`;

    const answer = await system.request('POST', '/api/admin/notifications', {
      token: admin,
      body: { userId: borrower.id, title: 'Loan update', message: 'Your documents were received.' },
      headers: { 'X-Request-Id': requestId },
    });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('x-request-id')).toBe(requestId);
    const notificationId = answer.body.id as string;

    // HTTP
    expect(lines().find((line) => line.msg === 'request' && line.requestId === requestId)).toMatchObject({ method: 'POST', route: '/api/admin/notifications', status: 201 });
    // event
    const events = await system.store.readStream(streams.member(borrower.id));
    const notified = events.find((event) => event.type === 'MemberNotified');
    expect(notified?.metadata).toMatchObject({ requestId, correlationId: requestId });
    // projection
    expect(lines().find((line) => line.msg === 'event projected' && line.requestId === requestId)).toMatchObject({ type: 'MemberNotified', position: notified!.position });
    // socket
    expect((await pushed).doc.id).toBe(notificationId);
    expect(lines().find((line) => line.msg === 'change pushed' && line.requestId === requestId)).toMatchObject({ event: 'notification.created' });
    // job
    const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    const queue = new Queue(QUEUE_NAMES.notifications, { connection, prefix: createJobKeys(system.keyPrefix).queuePrefix });
    try {
      const job = await queue.getJob(notificationId);
      expect(job?.data).toMatchObject({ notificationId, requestId });
    } finally {
      await queue.close();
      connection.disconnect();
    }
    // SMS
    const sent = await eventually('the SMS line', async () => lines().find((line) => line.msg === 'notification SMS sent' && line.requestId === requestId));
    expect(sent).toMatchObject({ notificationId, memberId: borrower.id });
  });
});

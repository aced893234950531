import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandling } from './errorHandling.js';
import { createLogger } from '../logging/logger.js';
import { jsonBodyGuard, jsonBodyProblemOf, MAX_JSON_DEPTH } from './jsonBodyGuard.js';

const nested = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown;

describe('jsonBodyProblemOf', () => {
  it('accepts ordinary bodies, emoji and accents included', () => {
    expect(jsonBodyProblemOf({ fullName: 'José Rizal 😀', notify: { title: 'Hi', message: 'e\u0301' }, tags: [1, [2, [3]]] })).toBeNull();
    expect(jsonBodyProblemOf(undefined)).toBeNull();
    expect(jsonBodyProblemOf(nested(MAX_JSON_DEPTH))).toBeNull();
  });

  it('refuses nesting deeper than the limit, however deep, without recursing', () => {
    expect(jsonBodyProblemOf(nested(MAX_JSON_DEPTH + 1))).toEqual({ kind: 'too deep' });
    // Deep enough that a recursive walk (or JSON.stringify) would overflow the stack.
    expect(jsonBodyProblemOf({ role: nested(40_000) })).toEqual({ kind: 'too deep' });
  });

  it('names the field holding text the event store cannot keep: U+0000 or an unpaired surrogate', () => {
    expect(jsonBodyProblemOf({ description: 'a\u0000b' })).toEqual({ kind: 'bad text', path: 'description' });
    expect(jsonBodyProblemOf({ notify: { title: '\ud800' } })).toEqual({ kind: 'bad text', path: 'notify.title' });
    expect(jsonBodyProblemOf({ reason: 'x\udfffy' })).toEqual({ kind: 'bad text', path: 'reason' });
    expect(jsonBodyProblemOf({ ['\ud800']: 'key' })).toEqual({ kind: 'bad text', path: '_' });
  });
});

describe('jsonBodyGuard over HTTP', () => {
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    const app = new Koa();
    app.use(errorHandling(createLogger('test', { level: 'silent' })));
    app.use(koaBody({ jsonLimit: '100kb', jsonStrict: true }));
    app.use(jsonBodyGuard());
    // What the idempotency middleware does with every creating POST's body.
    app.use((ctx) => {
      ctx.body = { fingerprint: JSON.stringify((ctx.request as { body?: unknown }).body) };
    });
    // Koa's handler catches its own errors (ctx.onerror); Node's server does not look at the promise it returns.
    const handle = app.callback();
    server = createServer((request, response) => void handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = async (text: string) => {
    const res = await fetch(baseUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: text });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('answers a stack-deep body 400 BODY_TOO_DEEP instead of overflowing into a 500', async () => {
    const res = await post(`{"amount":1000,"role":${'['.repeat(45_000)}${']'.repeat(45_000)}}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BODY_TOO_DEEP');
  });

  it('answers unstorable text 400 VALIDATION_FAILED on its field', async () => {
    const res = await post('{"ipAddress":"127.0.0.1","description":"\\ud800"}');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', details: { fields: { description: expect.any(String) } } });
  });

  it('lets an ordinary body through', async () => {
    expect(await post('{"fullName":"Maria Santos 😀"}')).toEqual({ status: 200, body: { fingerprint: '{"fullName":"Maria Santos 😀"}' } });
  });
});

import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import { koaBody } from 'koa-body';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logging/logger.js';
import { errorHandling } from './errorHandling.js';
import { endpoint } from './endpoint.js';
import { routesOf } from './routeTable.js';

const body = z.object({ amount: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]), note: z.string().trim().optional() });
const query = z.object({
  page: z
    .string()
    .regex(/^\d+$/)
    .transform(Number)
    .optional()
    .transform((page) => page ?? 1),
});
const answer = z.strictObject({ amount: z.number(), note: z.string().nullable(), page: z.number() });
const handed: unknown[] = [];

const router = new Router({ prefix: '/api/things' });
router.post(
  '/',
  endpoint({ summary: 'Make a thing', body, query, answer, status: 201, refusals: ['409 THING_EXISTS'] }, (ctx, input) => {
    handed.push(input);
    ctx.status = 201;
    ctx.body = { amount: input.body.amount, note: input.body.note ?? null, page: input.query.page };
  }),
);
router.get('/plain', (ctx) => {
  ctx.body = { plain: true };
});

const app = new Koa();
app.use(errorHandling(createLogger('test', { level: 'silent' })));
app.use(koaBody());
app.use(Object.assign(router.routes(), { router }));
// Koa's handler catches its own errors (ctx.onerror); Node's server does not look at the promise it returns.
const handle = app.callback();
const server = createServer((request, response) => void handle(request, response));
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (path: string, json: unknown) => fetch(`${base}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json) });

describe('endpoint(doc, handler)', () => {
  it('hands the handler the body and query as the declared schemas parsed them (transforms applied)', async () => {
    handed.length = 0;
    const res = await post('/api/things?page=3', { amount: '120', note: '  hello  ', extra: 'ignored' });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ amount: 120, note: 'hello', page: 3 });
    expect(handed).toEqual([{ body: { amount: 120, note: 'hello' }, query: { page: 3 } }]);
  });

  it('refuses what the declared schemas refuse with 400 before the handler runs', async () => {
    handed.length = 0;
    const badBody = await post('/api/things', { amount: 'lots' });
    expect(badBody.status).toBe(400);
    expect(await badBody.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: { fields: { amount: expect.any(String) } } });
    const badQuery = await post('/api/things?page=first', { amount: 1 });
    expect(badQuery.status).toBe(400);
    expect(handed).toEqual([]);
  });

  it('leaves its documentation on the route table, and a route defined without it shows there undocumented', () => {
    const routes = routesOf(app);
    const made = routes.find((route) => route.method === 'POST' && route.path === '/api/things')!;
    expect(made.endpoints).toHaveLength(1);
    expect(made.endpoints[0].body).toBe(body);
    expect(made.endpoints[0].query).toBe(query);
    expect(made.endpoints[0].answer).toBe(answer);
    expect(routes.find((route) => route.path === '/api/things/plain')!.endpoints).toEqual([]);
  });
});

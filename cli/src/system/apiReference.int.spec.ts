import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createApp, jsonSchemaOf, routeKey, routesOf, type EndpointDoc, type MountedRoute } from '@honeylend/command-api';
import { startTestSystem, type TestSystem } from '../testing/testSystem.js';

let system: TestSystem;
let mounted: MountedRoute[];
let document: { openapi: string; paths: Record<string, Record<string, Operation>> };

interface Operation {
  requestBody?: { content: Record<string, { schema: unknown }> };
  parameters?: { name: string; in: string; required: boolean; schema: unknown }[];
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  security?: unknown[];
}

beforeAll(async () => {
  system = await startTestSystem();
  // The route table as the test system's node mounts it (outside production: the development routes too).
  mounted = routesOf(createApp(system.api.deps, { devOutbox: true, devBusinessDate: true }));
  const answer = await fetch(`${system.baseUrl}/api/openapi.json`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  document = (await answer.json()) as typeof document;
});
afterAll(() => system?.stop());

const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
const operationOf = (route: MountedRoute) => document.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
const isFile = (answer: EndpointDoc['answer']): answer is { file: readonly string[] } => 'file' in answer && Array.isArray(answer.file);

describe('the API reference (GET /api/openapi.json)', () => {
  it('is an OpenAPI 3.1 document of exactly the mounted routes, every one declared where it is defined', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(mounted.length).toBeGreaterThan(60);
    expect(mounted.filter((route) => route.endpoints.length === 0).map(routeKey), 'routes defined without endpoint(doc, handler)').toEqual([]);
    const documented = Object.entries(document.paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`))
      .sort();
    expect(documented).toEqual(mounted.map(routeKey).sort());
  });

  it('gives each route the request and answer schemas its endpoint validates with and answers by', () => {
    const drift: string[] = [];
    const differs = (what: string, route: MountedRoute, served: unknown, declared: unknown) => {
      if (JSON.stringify(served) !== JSON.stringify(declared)) drift.push(`${routeKey(route)}: ${what}`);
    };
    for (const route of mounted) {
      const operation = operationOf(route);
      if (!operation) {
        drift.push(`${routeKey(route)}: missing`);
        continue;
      }
      const [first] = route.endpoints;
      const body = route.endpoints.find((doc) => doc.body)?.body;
      const upload = route.endpoints.find((doc) => doc.upload)?.upload;
      if (body) differs('body', route, operation.requestBody?.content['application/json']?.schema, jsonSchemaOf(body, 'input'));
      else if (upload) differs('upload', route, Object.keys(operation.requestBody?.content ?? {}), ['multipart/form-data']);
      else differs('no body', route, operation.requestBody, undefined);

      const query = route.endpoints.find((doc) => doc.query)?.query;
      const queryParameters = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query');
      const declaredQuery = query ? ((jsonSchemaOf(query, 'input') as { properties?: Record<string, unknown> }).properties ?? {}) : {};
      differs('query', route, Object.fromEntries(queryParameters.map((parameter) => [parameter.name, parameter.schema])), declaredQuery);
      differs(
        'path parameters',
        route,
        (operation.parameters ?? []).filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
        route.paramNames,
      );

      for (const doc of route.endpoints) {
        const content = operation.responses[String(doc.status ?? 200)]?.content ?? {};
        const answer = doc.answer;
        if (isFile(answer)) {
          differs(
            'file answer',
            route,
            Object.keys(content).filter((type) => answer.file.includes(type)),
            [...answer.file],
          );
          continue;
        }
        const served = content['application/json']?.schema as { anyOf?: unknown[] } | undefined;
        const declared = jsonSchemaOf(doc.answer as z.ZodType, 'output');
        const same = JSON.stringify(served) === JSON.stringify(declared) || (served?.anyOf ?? []).some((schema) => JSON.stringify(schema) === JSON.stringify(declared));
        if (!same) drift.push(`${routeKey(route)}: answer ${doc.status ?? 200}`);
      }
      for (const refusal of route.endpoints.flatMap((doc) => doc.refusals ?? [])) {
        const [status, code] = refusal.split(' ');
        const schema = operation.responses[status]?.content?.['application/json']?.schema as { properties?: { code?: { examples?: string[] } } } | undefined;
        if (!schema || (code && !schema.properties?.code?.examples?.includes(code))) drift.push(`${routeKey(route)}: refusal ${refusal}`);
      }
      if (first?.public && !first.signedBody) differs('public', route, operation.security, []);
    }
    expect(drift).toEqual([]);
  });

  it('describes the loan update as its one body: the status part and the terms part together', () => {
    const update = operationOf(mounted.find((route) => routeKey(route) === 'PUT /api/admin/loans/:id')!);
    const schema = JSON.stringify(update.requestBody?.content['application/json']?.schema);
    for (const field of ['status', 'message', 'notify', 'amount', 'termMonths']) expect(schema).toContain(`"${field}"`);
  });
});

describe('the reference page (GET /api/docs)', () => {
  it('is served from this server with the renderer’s files, under the API’s own security headers', async () => {
    const page = await fetch(`${system.baseUrl}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    const html = await page.text();
    // No inline script (the policy would block it) and nothing from another origin.
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.every(([, attributes, content]) => /\bsrc=/.test(attributes) && content.trim() === '')).toBe(true);
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(sources.every((source) => source.startsWith('/api/docs/'))).toBe(true);
    for (const source of sources) {
      const file = await fetch(`${system.baseUrl}${source}`);
      expect(file.status, source).toBe(200);
      expect((await file.arrayBuffer()).byteLength, source).toBeGreaterThan(0);
    }
    const script = await (await fetch(`${system.baseUrl}/api/docs/reference.js`)).text();
    expect(script).toContain("url: '/api/openapi.json'");
    const missing = await fetch(`${system.baseUrl}/api/docs/index.html`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});

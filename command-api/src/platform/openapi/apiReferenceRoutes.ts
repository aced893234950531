import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Router from '@koa/router';
import type Koa from 'koa';
import { z } from 'zod';
import { ApiError } from '../errors/apiError.js';
import { endpoint } from '../http/endpoint.js';
import { pathParam } from '../http/pathId.js';
import { routesOf } from '../http/routeTable.js';
import { openApiDocument } from './openApiDocument.js';

/** The shape every OpenAPI 3.1 document has (the rest is the routes'). */
export const openApiDocumentAnswer = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.looseObject({ responses: z.record(z.string(), z.unknown()) }))),
});

/**
 * The reference page: Swagger UI, served from this server (the swagger-ui-dist package), so it
 * works offline and under the API's Content-Security-Policy (scripts from this origin only: the
 * page has no inline script, its start-up is reference.js).
 */
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Honeylend API reference</title>
    <link rel="stylesheet" href="/api/docs/swagger-ui.css">
  </head>
  <body>
    <div id="reference"></div>
    <script src="/api/docs/swagger-ui-bundle.js"></script>
    <script src="/api/docs/reference.js"></script>
  </body>
</html>
`;

const START = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#reference', deepLinking: true, presets: [SwaggerUIBundle.presets.apis], layout: 'BaseLayout' });
});
`;

const swaggerUiDir = () => dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The page's files: two of the renderer's, one of ours. Read on first use, then kept. */
const ASSETS: Record<string, { type: string; load: () => Buffer | string }> = {
  'swagger-ui.css': { type: 'text/css; charset=utf-8', load: () => readFileSync(join(swaggerUiDir(), 'swagger-ui.css')) },
  'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', load: () => readFileSync(join(swaggerUiDir(), 'swagger-ui-bundle.js')) },
  'reference.js': { type: 'text/javascript; charset=utf-8', load: () => START },
};
export const API_REFERENCE_ASSETS = Object.keys(ASSETS);

/**
 * GET /api/openapi.json (the document, made from the app's mounted route table the first time it
 * is asked for: by then every router is mounted) and GET /api/docs (the page that reads it).
 * Both are public: they describe the shape of the API, which the web app's code shows anyone
 * anyway, and hold no data; every route they list still checks its own caller.
 */
export function apiReferenceRoutes(app: Koa, info: { title: string; version: string }): Router {
  const router = new Router({ prefix: '/api' });
  let document: Record<string, unknown> | undefined;
  const loaded = new Map<string, Buffer | string>();

  router.get(
    '/openapi.json',
    endpoint({ summary: 'This API reference as an OpenAPI 3.1 document', public: true, answer: openApiDocumentAnswer }, (ctx) => {
      document ??= openApiDocument(routesOf(app), info);
      ctx.body = document;
    }),
  );

  router.get(
    '/docs',
    endpoint({ summary: 'The API reference, readable (Swagger UI)', public: true, answer: { file: ['text/html'] } }, (ctx) => {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = PAGE;
    }),
  );

  router.get(
    '/docs/:asset',
    endpoint({ summary: "The reference page's style sheet and scripts", public: true, answer: { file: ['text/css', 'text/javascript'] }, refusals: ['404 NOT_FOUND'] }, (ctx) => {
      const name = String(pathParam(ctx, 'asset'));
      const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
      if (!asset) throw new ApiError(404, 'NOT_FOUND', `The reference page has no file ${name}`);
      if (!loaded.has(name)) loaded.set(name, asset.load());
      ctx.type = asset.type;
      // The renderer's files hold no account data: unlike the API's answers, a browser may keep them a while.
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.body = loaded.get(name);
    }),
  );

  return router;
}

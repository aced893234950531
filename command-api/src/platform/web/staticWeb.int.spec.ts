import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gunzipSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonCompression, JSON_COMPRESSION_THRESHOLD_BYTES } from '../http/jsonCompression.js';
import { staticWeb } from './staticWeb.js';

// Issue 20: the web app's files go as their build-time Brotli/gzip copies by Accept-Encoding, hashed
// assets immutable-cached; the API's JSON is compressed above a threshold. Over real HTTP, raw bytes.

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

let server: Server;
let root: string;
const script = `export const greeting = ${JSON.stringify('mabuhay '.repeat(400))};\n`;
const html = `<!doctype html><title>Effortless Borrowing · Honeylend</title>${'<p>landing</p>'.repeat(200)}`;
const appHtml = `<!doctype html><title>Honeylend</title>${'<p>app</p>'.repeat(200)}`;
const dashboardHtml = `<!doctype html><title>Dashboard · Honeylend</title><div id="root" data-prerendered="dashboard">${'<p>frame</p>'.repeat(200)}</div>`;
const bigJson = { items: Array.from({ length: 200 }, (_, index) => ({ id: `loan-${index}`, amountCentavos: index * 100 })) };

function get(path: string, acceptEncoding?: string): Promise<RawAnswer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
    request.end();
  });
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'honeylend-static-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'assets', 'main-AbC123.js'), script);
  writeFileSync(join(root, 'assets', 'main-AbC123.js.br'), brotliCompressSync(script));
  writeFileSync(join(root, 'assets', 'main-AbC123.js.gz'), gzipSync(script));
  writeFileSync(join(root, 'assets', 'logo-XyZ789.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  writeFileSync(join(root, 'index.html'), html);
  writeFileSync(join(root, 'index.html.br'), brotliCompressSync(html));
  writeFileSync(join(root, 'index.html.gz'), gzipSync(html));
  writeFileSync(join(root, 'app.html'), appHtml);
  writeFileSync(join(root, 'app.html.br'), brotliCompressSync(appHtml));
  writeFileSync(join(root, 'dashboard.html'), dashboardHtml);

  const app = new Koa();
  app.use(jsonCompression());
  app.use(async (ctx, next) => {
    if (ctx.path === '/api/big') ctx.body = bigJson;
    else if (ctx.path === '/api/small') ctx.body = { ok: true };
    else await next();
  });
  app.use(staticWeb(root));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

describe('the web app files', () => {
  it('sends the Brotli copy of a hashed script to a browser that accepts br, immutable-cached and varying by encoding', async () => {
    const answer = await get('/assets/main-AbC123.js', 'gzip, deflate, br');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(answer.headers.vary).toMatch(/accept-encoding/i);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(Buffer.byteLength(script) / 4);
    expect(brotliDecompressSync(answer.body).toString()).toBe(script);
  });

  it('sends the gzip copy when br is not accepted (or refused with q=0)', async () => {
    for (const header of ['gzip', 'br;q=0, gzip;q=0.8']) {
      const answer = await get('/assets/main-AbC123.js', header);
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(answer.body).toString()).toBe(script);
    }
  });

  it('sends the file as it is without an Accept-Encoding, or for a file with no copies', async () => {
    const plain = await get('/assets/main-AbC123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    const image = await get('/assets/logo-XyZ789.png', 'br, gzip');
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.body).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  });

  it('sends app.html for a client route, compressed but revalidated on every visit', async () => {
    const answer = await get('/wallet', 'br');
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(answer.body).toString()).toBe(appHtml);
    const unknown = await get('/no-such-page/deeper');
    expect(unknown.body.toString()).toBe(appHtml);
  });

  it('sends dashboard.html, the dashboard with its prerendered frame, at /loan-app only (issue 20)', async () => {
    for (const path of ['/loan-app', '/loan-app/']) {
      const answer = await get(path, 'br, gzip');
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.headers['cache-control']).toBe('no-cache');
      expect(answer.body.toString()).toBe(dashboardHtml);
    }
    expect((await get('/loan-app/more')).body.toString()).toBe(appHtml);
  });

  it('sends index.html, the prerendered landing page, at / (issue 20)', async () => {
    const answer = await get('/', 'gzip');
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(gunzipSync(answer.body).toString()).toBe(html);
  });
});

describe('the API JSON', () => {
  it(`is compressed above ${JSON_COMPRESSION_THRESHOLD_BYTES} bytes, by the encoding the client accepts`, async () => {
    const brotli = await get('/api/big', 'gzip, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(brotli.body).toString())).toEqual(bigJson);
    const gzip = await get('/api/big', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.body).toString())).toEqual(bigJson);
    const identity = await get('/api/big', 'identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(identity.body.toString())).toEqual(bigJson);
  });

  it('goes as it is when small', async () => {
    const answer = await get('/api/small', 'br, gzip');
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(answer.body.toString())).toEqual({ ok: true });
  });
});

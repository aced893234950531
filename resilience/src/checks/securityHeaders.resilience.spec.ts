import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, startApiServer } from '@honeylend/command-api';
import { REDIS_URL, startTestSystem, type TestSystem } from '../../../cli/src/testing/testSystem.js';
import { reportFigure } from '../support/figures.js';

let system: TestSystem;
beforeAll(async () => {
  system = await startTestSystem();
});
afterAll(() => system?.stop());

const REQUIRED: Record<string, RegExp> = {
  'content-security-policy': /default-src 'self'.*script-src 'self'.*frame-ancestors 'none'/,
  'x-content-type-options': /^nosniff$/,
  'referrer-policy': /^no-referrer$/,
  'x-frame-options': /^SAMEORIGIN$|^DENY$/,
  'cache-control': /no-store/,
};

describe('security headers', () => {
  it('every kind of API answer carries them: success, bad input, unknown route, unauthenticated', async () => {
    const answers = [
      await system.request('GET', '/api/health'),
      await system.request('POST', '/api/auth/register', { body: {} }),
      await system.request('GET', '/api/nope'),
      await system.request('GET', '/api/user/profile'),
    ];
    const missing: string[] = [];
    for (const answer of answers) {
      for (const [header, pattern] of Object.entries(REQUIRED)) {
        if (!pattern.test(answer.headers.get(header) ?? '')) missing.push(`${answer.status} ${header}`);
      }
    }
    reportFigure({ check: '14 headers', name: `missing of ${answers.length * Object.keys(REQUIRED).length} required headers`, value: missing.length, target: '0' });
    expect(missing).toEqual([]);
    expect(answers.map((a) => a.status)).toEqual([200, 400, 404, 401]);
  });

  it('the web app’s pages and assets carry the strict policy too (figure: missing headers)', async () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'honeylend-web-'));
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>Honeylend</title><script type="module" src="/assets/app.js"></script>');
    writeFileSync(join(webRoot, 'app.js'), 'console.log("app")');
    const node = await startApiServer({
      store: system.store,
      redisUrl: REDIS_URL,
      keyPrefix: system.keyPrefix,
      jwtSecret: 'test-secret-that-is-long-enough-for-hs256',
      uploadDir: system.uploadDir,
      port: 0,
      host: '127.0.0.1',
      webRoot,
      env: { NODE_ENV: 'test' },
      logger: createLogger('test', { level: 'silent' }),
      auditTrustedKeys: system.api.deps.audit.trustedKeys,
    });
    try {
      const pages = ['/', '/loan-app', '/management/members', '/app.js'];
      const missing: string[] = [];
      for (const page of pages) {
        const answer = await fetch(`http://127.0.0.1:${node.port}${page}`);
        for (const header of ['content-security-policy', 'x-content-type-options', 'referrer-policy'] as const) {
          if (!REQUIRED[header].test(answer.headers.get(header) ?? '')) missing.push(`${page} ${header}`);
        }
      }
      reportFigure({ check: '14 headers', name: `web app: missing of ${pages.length * 3} required headers`, value: missing.length, target: '0' });
      expect(missing).toEqual([]);
    } finally {
      await node.close();
      rmSync(webRoot, { recursive: true, force: true });
    }
  });

  it('the API reference (the document, its page and the renderer’s files) carries them too (figure: missing headers)', async () => {
    const pages = ['/api/openapi.json', '/api/docs', '/api/docs/swagger-ui-bundle.js', '/api/docs/swagger-ui.css', '/api/docs/reference.js'];
    const missing: string[] = [];
    for (const page of pages) {
      const answer = await fetch(`${system.baseUrl}${page}`);
      expect(answer.status, page).toBe(200);
      for (const header of ['content-security-policy', 'x-content-type-options', 'referrer-policy', 'x-frame-options'] as const) {
        if (!REQUIRED[header].test(answer.headers.get(header) ?? '')) missing.push(`${page} ${header}`);
      }
    }
    reportFigure({ check: '14 headers', name: `API reference: missing of ${pages.length * 4} required headers`, value: missing.length, target: '0' });
    expect(missing).toEqual([]);
  });

  it('tells nobody which server software answers', async () => {
    const answer = await system.request('GET', '/api/health');
    expect(answer.headers.get('x-powered-by')).toBeNull();
  });
});

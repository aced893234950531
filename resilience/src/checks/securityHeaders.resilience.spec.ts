import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../../../cli/src/testing/testSystem.js';
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

  it('tells nobody which server software answers', async () => {
    const answer = await system.request('GET', '/api/health');
    expect(answer.headers.get('x-powered-by')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { collectPageErrors, screenshot } from './support/browser.js';
import { systemAndBrowser } from './support/suite.js';

describe('the API reference page (/api/docs) in a browser', () => {
  const suite = systemAndBrowser();

  it('renders every route of the document offline, under the API’s Content-Security-Policy', async () => {
    const context = await suite.browser.newContext({ baseURL: suite.system.baseUrl, viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(30_000);
    // Offline: anything the page asks of another origin is refused and recorded.
    const elsewhere: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(suite.system.baseUrl)) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    try {
      const answer = await page.goto('/api/docs');
      expect(answer?.status()).toBe(200);
      expect(answer?.headers()['content-security-policy']).toMatch(/script-src 'self'/);
      await page.locator('.opblock').first().waitFor();

      const document = (await suite.system.request('GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
      const expected = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
      // Swagger UI shows each operation as a block with its method and path.
      const shown = await page
        .locator('.opblock-summary')
        .evaluateAll((blocks) => blocks.map((block) => `${block.querySelector('.opblock-summary-method')?.textContent?.trim()} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`));
      expect(shown.sort()).toEqual(expected.sort());

      // One operation opened: its request body schema and answers are there to read.
      await page.locator('#operations-loans-POST_api_loans, .opblock-post:has([data-path="/api/loans"])').first().locator('.opblock-summary').click();
      await page.getByText('termMonths').first().waitFor();
      await screenshot(page, 'api-reference');

      expect(elsewhere).toEqual([]);
      // A blocked script or style shows as a console error ("Refused to … Content Security Policy").
      expect(errors.filter((error) => /Content Security Policy|Refused to/i.test(error))).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

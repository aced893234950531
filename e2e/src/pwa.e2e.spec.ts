import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBorrower } from './support/borrowers.js';
import { launchChromium, phoneContext } from './support/browser.js';
import { eventually } from './support/helpers.js';
import { startSystem, type RunningSystem } from './support/system.js';

/** The width and height a PNG's header gives (bytes 16–23 of the IHDR chunk). */
function pngSize(bytes: Buffer): string {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

interface WebAppManifest {
  name?: string;
  short_name?: string;
  start_url?: string;
  display?: string;
  theme_color?: string;
  icons?: { src: string; sizes: string; type: string; purpose?: string }[];
}

/**
 * Issue 20: the app is installable (manifest with name, 192 and 512 px icons, start_url,
 * display standalone; a service worker that controls the page), shows its offline page with the
 * network cut, and its service worker keeps no API answer.
 */
describe('the installable app (issue 20)', () => {
  let system: RunningSystem;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    system = await startSystem();
    browser = await launchChromium();
    context = await phoneContext(browser, system.baseUrl);
    page = await context.newPage();
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await system?.stop();
  });

  it('links a manifest with its name, start_url, standalone display and 192 and 512 px icons', async () => {
    await page.goto('/');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBeTruthy();
    const response = await page.request.get(href ?? '');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = (await response.json()) as WebAppManifest;
    expect(manifest).toMatchObject({ name: 'Honeylend', short_name: 'Honeylend', start_url: '/', display: 'standalone', theme_color: '#f2a516' });
    const sizes: string[] = [];
    for (const icon of manifest.icons ?? []) {
      const image = await page.request.get(icon.src);
      expect(image.status(), icon.src).toBe(200);
      const size = pngSize(await image.body());
      expect(icon.sizes, icon.src).toBe(size);
      sizes.push(size);
    }
    expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
  });

  it('has an active service worker that controls the page once it is loaded again', async () => {
    await page.goto('/');
    await page.evaluate('navigator.serviceWorker.ready.then(() => undefined)');
    await page.reload();
    const state = await page.evaluate('navigator.serviceWorker.ready.then((registration) => ({ active: registration.active?.state, controlled: navigator.serviceWorker.controller !== null, scope: registration.scope }))');
    expect(state).toEqual({ active: 'activated', controlled: true, scope: `${system.baseUrl}/` });
  });

  it('caches no API answer while a borrower uses the app', async () => {
    const borrower = await approvedBorrower(system);
    await page.evaluate(`window.localStorage.setItem('token', ${JSON.stringify(borrower.token)})`);
    await page.goto('/loan-app');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.goto('/wallet');
    await page.getByRole('heading', { level: 1, name: 'Wallet' }).waitFor();
    const cached = await page.evaluate<string[]>(`(async () => {
      const urls = [];
      for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      return urls;
    })()`);
    // The shell is there (so the check can fail), and nothing under /api or the socket.
    expect(cached).toEqual(expect.arrayContaining(['/index.html', '/offline.html']));
    expect(cached.filter((path) => path.startsWith('/api') || path.startsWith('/socket.io'))).toEqual([]);
    await page.evaluate("window.localStorage.removeItem('token')");
  });

  it('shows its offline page when the network is gone, and the app again when it is back', async () => {
    await page.goto('/');
    await page.evaluate('navigator.serviceWorker.ready.then(() => undefined)');
    await eventually('the page is controlled by the service worker', async () => ((await page.evaluate('navigator.serviceWorker.controller !== null')) ? true : undefined), 15_000);
    await context.setOffline(true);
    try {
      await page.goto('/wallet');
      await page.getByRole('heading', { level: 1, name: "You're offline" }).waitFor();
      expect(await page.title()).toBe('Offline · Honeylend');
    } finally {
      await context.setOffline(false);
    }
    await page.getByRole('link', { name: 'Try again' }).click();
    await page.getByRole('heading', { level: 1, name: 'Effortless Borrowing, Smooth as Honey!' }).waitFor();
  });
});

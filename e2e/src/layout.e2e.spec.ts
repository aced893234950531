import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { horizontalOverflow, launchChromium, screenshot } from './support/browser.js';
import { approvedBorrower } from './support/borrowers.js';
import { startSystem, type RunningSystem } from './support/system.js';

/** Mobile first, and still whole up to a desktop: no screen may scroll sideways at any of these widths. */
const WIDTHS = [360, 768, 1280] as const;

const SCREENS = [
  { path: '/', ready: 'Effortless Borrowing, Smooth as Honey!', signedIn: false },
  { path: '/app-login', ready: 'Welcome back', signedIn: false },
  { path: '/no-such-page', ready: 'Page not found', signedIn: false },
  { path: '/loan-app', ready: 'Dashboard', signedIn: true },
  { path: '/wallet', ready: 'Wallet', signedIn: true },
  { path: '/profile', ready: 'Profile', signedIn: true },
] as const;

describe('the borrower screens from 360 to 1280 wide', () => {
  let system: RunningSystem;
  let browser: Browser;
  let token: string;

  beforeAll(async () => {
    system = await startSystem();
    browser = await launchChromium();
    token = (await approvedBorrower(system)).token;
  });

  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  for (const width of WIDTHS) {
    it(`lays out every screen without sideways scrolling at ${width} px`, async () => {
      const context: BrowserContext = await browser.newContext({ baseURL: system.baseUrl, viewport: { width, height: 900 }, locale: 'en-PH', timezoneId: 'Asia/Manila' });
      try {
        const page: Page = await context.newPage();
        for (const screen of SCREENS) {
          if (screen.signedIn) await page.evaluate(`window.localStorage.setItem('token', ${JSON.stringify(token)})`);
          else await page.evaluate("window.localStorage.removeItem('token')").catch(() => undefined);
          await page.goto(screen.path);
          await page.getByRole('heading', { level: 1, name: screen.ready }).waitFor();
          if (screen.signedIn)
            await page
              .getByText('Loading...')
              .first()
              .waitFor({ state: 'detached' })
              .catch(() => undefined);
          expect(await horizontalOverflow(page), `${screen.path} at ${width} px`).toBe(0);
          await screenshot(page, `layout-${width}${screen.path.replace(/\//g, '-') || '-home'}`);
        }
      } finally {
        await context.close();
      }
    });
  }
});

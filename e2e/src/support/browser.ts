import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { paths } from './paths.js';

/**
 * Flags for Debian's Chromium on a machine without network access: without the background
 * networking flags Chromium keeps trying to reach Google's services. Playwright gives every
 * launch a fresh temporary profile (--user-data-dir) of its own.
 */
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Spec: mobile first, 360 × 740. */
export const PHONE = { width: 360, height: 740 } as const;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: paths.chromium, args: CHROMIUM_ARGS, headless: true });
}

/** A fresh phone-sized context (no stored token, no cookies) on the system at `baseURL`. */
export async function phoneContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'en-PH', timezoneId: 'Asia/Manila' });
  context.setDefaultTimeout(10_000);
  return context;
}

/** Where the tests leave their screenshots: E2E_SCREENSHOTS, or a folder under the temp dir. */
export const SCREENSHOT_DIR = process.env.E2E_SCREENSHOTS ?? join(tmpdir(), 'honeylend-e2e-screenshots');

/** The whole page by default; `screen` takes only what the phone shows (dialogs, toasts). */
export async function screenshot(page: Page, name: string, what: 'page' | 'screen' = 'page'): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: what === 'page', animations: 'disabled' });
}

/** How far the page is wider than the screen (0 when nothing sticks out sideways). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
}

/** Errors the page threw or logged, so a test can say there were none. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
  });
  return errors;
}

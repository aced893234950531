import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { approvedBorrower } from './support/borrowers.js';
import { collectPageErrors, launchChromium, phoneContext } from './support/browser.js';
import { eventually } from './support/helpers.js';
import { startSystem, type RunningSystem } from './support/system.js';

/**
 * Issue 20: the landing page is static HTML rendered at build time with a small script of its own;
 * React and the app load only when they are needed — in the background when the visitor shows
 * intent to sign in or register, and at once for a stored session (the app draws the page then).
 */
describe('the prerendered landing page at 360 × 740 (issue 20)', () => {
  let system: RunningSystem;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let scripts: string[];

  beforeAll(async () => {
    system = await startSystem();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  beforeEach(async () => {
    context = await phoneContext(browser, system.baseUrl);
    page = await context.newPage();
    errors = collectPageErrors(page);
    scripts = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
  });

  afterEach(async () => {
    await context?.close();
  });

  const heading = (name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
  /** The app's scripts: its page's entry and React's chunks, none of which the landing itself imports. */
  const appScripts = () => scripts.filter((path) => /\/assets\/(app|boot|react)-/.test(path));

  it('arrives as HTML with its own script only: no React, and the carousel, its pause button and the menu work', async () => {
    const answer = await page.goto('/');
    expect(await answer?.text()).toContain('Effortless Borrowing, Smooth as Honey!');
    await heading('Effortless Borrowing, Smooth as Honey!');
    await page.waitForLoadState('load');
    expect(scripts.length).toBeGreaterThan(0);
    expect(appScripts()).toEqual([]);

    const dotIndex = () =>
      page.evaluate("[...document.querySelectorAll('.carousel__dot')].findIndex((dot) => dot.getAttribute('aria-current') === 'true')") as Promise<number>;
    await page.getByRole('button', { name: 'Next banner' }).click();
    expect(await dotIndex()).toBe(1);
    await page.getByRole('button', { name: 'Pause banners' }).click();
    await page.getByRole('button', { name: 'Play banners' }).waitFor();

    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await menu.waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(appScripts()).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('fetches the app when Register is pointed at, and opens registration from it', async () => {
    await page.goto('/');
    await heading('Effortless Borrowing, Smooth as Honey!');
    await page.getByRole('link', { name: 'Register (new client)' }).hover();
    await eventually('the app is prefetched', async () => (appScripts().some((path) => path.includes('/boot-')) ? true : undefined));
    // Still the static page: prefetching draws nothing.
    expect(await page.locator('#root[data-landing="static"] .carousel').count()).toBe(1);
    await page.getByRole('link', { name: 'Register (new client)' }).click();
    await page.waitForURL('**/app-login?register=true');
    await page.getByLabel('Full name').waitFor();
    expect(errors).toEqual([]);
  });

  it('is drawn by the app for a stored session: the signed-in shell with its tab bar', async () => {
    const borrower = await approvedBorrower(system);
    await page.goto('/');
    await page.evaluate(`window.localStorage.setItem('token', ${JSON.stringify(borrower.token)})`);
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Account' }).waitFor();
    await heading('Effortless Borrowing, Smooth as Honey!');
    expect(appScripts().some((path) => path.includes('/boot-'))).toBe(true);
    expect(await page.locator('.carousel').count()).toBe(1);
    expect(errors).toEqual([]);
  });
});

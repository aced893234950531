import { beforeEach, describe, expect, it } from 'vitest';
import { approvedBorrower } from './support/borrowers.js';
import { eventually } from './support/helpers.js';
import { phonePageEachTest, systemAndBrowser } from './support/suite.js';

/**
 * Issue 20: the landing page is static HTML rendered at build time with a small script of its own;
 * React and the app load only when they are needed — in the background when the visitor shows
 * intent to sign in or register, and at once for a stored session (the app draws the page then).
 */
describe('the prerendered landing page at 360 × 740 (issue 20)', () => {
  const suite = systemAndBrowser();
  const tab = phonePageEachTest(suite);
  let scripts: string[];

  beforeEach(() => {
    scripts = [];
    tab.page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
  });

  const heading = (name: string) => tab.page.getByRole('heading', { level: 1, name }).waitFor();
  /** The app's scripts: its page's entry and React's chunks, none of which the landing itself imports. */
  const appScripts = () => scripts.filter((path) => /\/assets\/(app|boot|react)-/.test(path));

  it('arrives as HTML with its own script only: no React, and the carousel, its pause button and the menu work', async () => {
    const answer = await tab.page.goto('/');
    expect(await answer?.text()).toContain('Effortless Borrowing, Smooth as Honey!');
    await heading('Effortless Borrowing, Smooth as Honey!');
    await tab.page.waitForLoadState('load');
    expect(scripts.length).toBeGreaterThan(0);
    expect(appScripts()).toEqual([]);

    const dotIndex = () => tab.page.evaluate<number>("[...document.querySelectorAll('.carousel__dot')].findIndex((dot) => dot.getAttribute('aria-current') === 'true')");
    await tab.page.getByRole('button', { name: 'Next banner' }).click();
    expect(await dotIndex()).toBe(1);
    await tab.page.getByRole('button', { name: 'Pause banners' }).click();
    await tab.page.getByRole('button', { name: 'Play banners' }).waitFor();

    await tab.page.getByRole('button', { name: 'Open menu' }).click();
    const menu = tab.page.getByRole('dialog', { name: 'Menu' });
    await menu.waitFor();
    await tab.page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(appScripts()).toEqual([]);
    expect(tab.errors).toEqual([]);
  });

  it('fetches the app when Register is pointed at, and opens registration from it', async () => {
    await tab.page.goto('/');
    await heading('Effortless Borrowing, Smooth as Honey!');
    await tab.page.getByRole('link', { name: 'Register (new client)' }).hover();
    await eventually('the app is prefetched', async () => (appScripts().some((path) => path.includes('/boot-')) ? true : undefined));
    // Still the static page: prefetching draws nothing.
    expect(await tab.page.locator('#root[data-landing="static"] .carousel').count()).toBe(1);
    await tab.page.getByRole('link', { name: 'Register (new client)' }).click();
    await tab.page.waitForURL('**/app-login?register=true');
    await tab.page.getByLabel('Full name').waitFor();
    expect(tab.errors).toEqual([]);
  });

  it('is drawn by the app for a stored session: the signed-in shell with its tab bar', async () => {
    const borrower = await approvedBorrower(suite.system);
    await tab.page.goto('/');
    await tab.page.evaluate(`window.localStorage.setItem('token', ${JSON.stringify(borrower.token)})`);
    await tab.page.goto('/');
    await tab.page.getByRole('navigation', { name: 'Account' }).waitFor();
    await heading('Effortless Borrowing, Smooth as Honey!');
    expect(appScripts().some((path) => path.includes('/boot-'))).toBe(true);
    expect(await tab.page.locator('.carousel').count()).toBe(1);
    expect(tab.errors).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { approvedBorrower } from './support/borrowers.js';
import { e164 } from './support/helpers.js';
import { phonePageEachTest, systemAndBrowser } from './support/suite.js';

/**
 * Issue 20: /loan-app is dashboard.html, whose page holds the dashboard's frame prerendered at
 * build time, so a phone on a slow network paints the dashboard before the app's script, the
 * session check and the dashboard's chunk have arrived. The frame holds nothing of any member,
 * cannot be pressed or announced, and the app hydrates it and draws the member's own parts into it.
 */
describe('the dashboard with its prerendered frame at 360 × 740 (issue 20)', () => {
  const suite = systemAndBrowser();
  const tab = phonePageEachTest(suite);

  const frameHeading = () => tab.page.locator('#root[data-prerendered="dashboard"] > [inert][aria-hidden="true"] h1', { hasText: 'Dashboard' });
  const appHeading = () => tab.page.getByRole('heading', { level: 1, name: 'Dashboard' });

  it("shows the frame while the session is checked, inert and hidden from screen readers, then hydrates it into the member's own dashboard", async () => {
    const borrower = await approvedBorrower(suite.system);
    await tab.page.goto('/');
    await tab.page.evaluate(`window.localStorage.setItem('token', ${JSON.stringify(borrower.token)})`);
    // The session check is held until the frame has been seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await tab.page.route('**/api/user/profile', async (route) => {
      await held;
      await route.continue();
    });

    const answer = await tab.page.goto('/loan-app', { waitUntil: 'domcontentloaded' });
    const html = (await answer?.text()) ?? '';
    expect(html).toContain('data-prerendered="dashboard"');
    expect(html).toContain('Fast cash loans');
    expect(html).not.toContain(e164(borrower.phone));
    await frameHeading().waitFor({ state: 'visible' });
    await tab.page.getByText('Loading...').first().waitFor({ state: 'visible' });
    // Hidden from the accessibility tree and unpressable until the app draws.
    expect(await appHeading().count()).toBe(0);
    expect(await tab.page.getByRole('navigation', { name: 'Account' }).count()).toBe(0);
    await tab.page.evaluate("window.__frameHeading = document.getElementById('page-title')");

    release();
    await appHeading().waitFor();
    await tab.page.getByText('Hello, Gabriela').waitFor();
    await tab.page.getByTestId('loan-number').waitFor();
    expect(await tab.page.locator('[inert]').count()).toBe(0);
    expect(await frameHeading().count()).toBe(0);
    // The app hydrated the frame rather than drawing a page of its own over it: the frame's
    // elements are the app's (no hydration mismatch either: the console has no error).
    expect(await tab.page.evaluate("window.__frameHeading === document.getElementById('page-title') && window.__frameHeading.isConnected")).toBe(true);
    // The app's own page works: its tab bar moves within the page.
    await tab.page.evaluate('window.__sameDocument = true');
    await tab.page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'WALLET' }).click();
    await tab.page.getByRole('heading', { level: 1, name: 'Wallet' }).waitFor();
    expect(await tab.page.evaluate('window.__sameDocument')).toBe(true);
    expect(tab.errors).toEqual([]);
  });

  it('gives a visitor at /loan-app the sign-in page in its place', async () => {
    await tab.page.goto('/loan-app');
    await tab.page.getByRole('heading', { level: 1, name: 'Welcome back' }).waitFor();
    expect(await frameHeading().count()).toBe(0);
    expect(new URL(tab.page.url()).pathname).toBe('/loan-app');
    expect(tab.errors).toEqual([]);
  });
});

import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

/** The admin console's screen (issue 7: a desktop at 1440 × 900). */
export const DESKTOP = { width: 1440, height: 900 } as const;

/** A fresh desktop context (no stored token) on the system at `baseURL`; `token` signs it in as that account. */
export async function desktopContext(browser: Browser, baseURL: string, options: { token?: string; viewport?: { width: number; height: number } } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: options.viewport ?? DESKTOP, locale: 'en-PH', timezoneId: 'Asia/Manila', acceptDownloads: true });
  context.setDefaultTimeout(15_000);
  if (options.token) await context.addInitScript(`window.localStorage.setItem('token', ${JSON.stringify(options.token)})`);
  return context;
}

const OPEN_POPOVER = '.ant-popover:not(.ant-popover-hidden)';

/** The open popconfirm's button (antd keeps closed ones in the page, hidden). */
export function popconfirmButton(page: Page, name: string) {
  return page.locator(OPEN_POPOVER).locator('.ant-popconfirm-buttons button', { hasText: new RegExp(`^\\s*${name}\\s*$`) });
}

/**
 * Clicks `trigger` until its confirmation is open: a click that lands while a dialog is still
 * entering, or a live update that re-renders the trigger, can leave it closed on a loaded machine.
 */
export async function openConfirmation(page: Page, trigger: Locator, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await trigger.click();
    try {
      await page.locator(OPEN_POPOVER).first().waitFor({ state: 'visible', timeout: 2_000 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

/** Answers the open confirmation with `name` and waits until it has closed (its action has ended). */
export async function confirm(page: Page, name: string): Promise<void> {
  await popconfirmButton(page, name).click();
  // Closed popovers get the hidden class, so the locator then matches nothing.
  await page.locator(OPEN_POPOVER).first().waitFor({ state: 'detached', timeout: 15_000 });
}

/** Picks an option of the antd Select labelled `label` inside `scope`. */
export async function chooseOption(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label }).click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: option }).first().click();
}

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { collectPageErrors, launchChromium, phoneContext } from './browser.js';
import { startSystem, type RunningSystem } from './system.js';

export interface SystemAndBrowser {
  readonly system: RunningSystem;
  readonly browser: Browser;
}

export interface PhonePage {
  readonly context: BrowserContext;
  readonly page: Page;
  /** What the page threw or logged as an error during the test. */
  readonly errors: string[];
}

/** Read through a getter so a spec can hold the object before its hooks have run; reading too early is a mistake in the spec. */
function started<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is there only inside the describe block's tests and hooks (its beforeAll starts it)`);
  return value;
}

/**
 * One system and one Chromium for the describe block it is called in: started before the block's
 * first test, stopped after its last.
 */
export function systemAndBrowser(): SystemAndBrowser {
  let system: RunningSystem | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    system = await startSystem();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });
  return {
    get system() {
      return started(system, 'the system');
    },
    get browser() {
      return started(browser, 'the browser');
    },
  };
}

/**
 * A fresh phone-sized context (no token, no cookies) and page on the suite's system for each test
 * of the block, closed after it, with the page's errors collected.
 */
export function phonePageEachTest(suite: SystemAndBrowser): PhonePage {
  let current: PhonePage | undefined;
  beforeEach(async () => {
    const context = await phoneContext(suite.browser, suite.system.baseUrl);
    const page = await context.newPage();
    current = { context, page, errors: collectPageErrors(page) };
  });
  afterEach(async () => {
    await current?.context.close();
    current = undefined;
  });
  return {
    get context() {
      return started(current, 'the phone page').context;
    },
    get page() {
      return started(current, 'the phone page').page;
    },
    get errors() {
      return started(current, 'the phone page').errors;
    },
  };
}

import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedBorrower } from './support/borrowers.js';
import { paths } from './support/paths.js';
import { startSystem, type RunningSystem } from './support/system.js';

/**
 * Issue 20: Lighthouse (mobile preset: simulated slow 4G, 4× CPU slowdown) on the landing page and
 * a signed-in borrower's dashboard, three runs each, judged on the medians.
 * - Always: CLS ≤ 0.05, accessibility 100, best practices ≥ 96 (these do not depend on speed).
 * - Performance ≥ 95, LCP ≤ 2.0 s, TBT ≤ 150 ms only when the machine was quiet during the runs
 *   (one-minute load per core below QUIET_LOAD_PER_CORE before and after): on a shared, busy
 *   machine the CPU-bound figures measure the neighbours. The output says which applied.
 * The figures are written to LIGHTHOUSE_REPORT (default: the temp folder) and printed; with
 * LIGHTHOUSE_LHR_DIR set, each run's whole report is written there as well.
 */
const RUNS = 3;
const QUIET_LOAD_PER_CORE = 0.5;
const THRESHOLDS = { performance: 95, lcpMs: 2_000, tbtMs: 150, cls: 0.05, accessibility: 100, bestPractices: 96 };
const REPORT = process.env.LIGHTHOUSE_REPORT ?? join(tmpdir(), 'honeylend-lighthouse.json');
/** When set, every run's full Lighthouse report (JSON) is written there too. */
const LHR_DIR = process.env.LIGHTHOUSE_LHR_DIR;

interface RunFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  interactiveMs: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const loadPerCore = () => loadavg()[0] / cpus().length;

describe('Lighthouse mobile on the landing page and the signed-in dashboard (issue 20)', () => {
  let system: RunningSystem;
  let context: BrowserContext;
  let profile: string;
  let token: string;
  const port = 9_300 + Math.floor(Math.random() * 500);
  const figures: Record<string, { runs: RunFigures[]; median: RunFigures; loadPerCore: number[] }> = {};

  beforeAll(async () => {
    system = await startSystem();
    token = (await approvedBorrower(system)).token;
    profile = mkdtempSync(join(tmpdir(), 'honeylend-lighthouse-profile-'));
    // A persistent profile: Lighthouse opens its tab in the browser's default context, where the
    // signed-in run's token is stored (Lighthouse's own storage reset would remove it; see below).
    context = await chromium.launchPersistentContext(profile, {
      executablePath: paths.chromium,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--remote-debugging-port=${port}`],
    });
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    if (profile) rmSync(profile, { recursive: true, force: true });
    await system?.stop();
  });

  /** A cold visit: no HTTP cache, no service worker, no caches; local storage kept (the token) or cleared. */
  async function coldStart(keepToken: boolean): Promise<void> {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${system.baseUrl}/favicon.svg`);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await cdp.send('Storage.clearDataForOrigin', { origin: system.baseUrl, storageTypes: 'service_workers,cache_storage,indexeddb,cookies' });
    await page.evaluate(keepToken ? `window.localStorage.setItem('token', ${JSON.stringify(token)})` : 'window.localStorage.clear()');
    await cdp.detach();
  }

  /**
   * One cold Lighthouse run. A run whose trace Lighthouse could not record (NO_NAVSTART and the
   * like, which it asks to run again; seen on a loaded machine) is run again, up to three times.
   */
  async function lighthouseRun(path: string, signedIn: boolean) {
    const failures: string[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await coldStart(signedIn);
      const result = await lighthouse(`${system.baseUrl}${path}`, {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
        // The cold start above did the reset, keeping the signed-in run's token.
        disableStorageReset: true,
      });
      const lhr = result?.lhr;
      if (!lhr) throw new Error(`Lighthouse gave no result for ${path}`);
      if (!lhr.runtimeError) return lhr;
      failures.push(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    }
    throw new Error(`Lighthouse failed on ${path} three times: ${failures.join('; ')}`);
  }

  async function audit(name: string, path: string, signedIn: boolean): Promise<void> {
    const runs: RunFigures[] = [];
    const loads: number[] = [loadPerCore()];
    for (let run = 0; run < RUNS; run += 1) {
      const lhr = await lighthouseRun(path, signedIn);
      // The whole report, for finding where the time went (long tasks, main-thread work by script).
      if (LHR_DIR) {
        mkdirSync(LHR_DIR, { recursive: true });
        writeFileSync(join(LHR_DIR, `${name}-${run + 1}.json`), JSON.stringify(lhr));
      }
      const score = (category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
      const value = (audit: string) => lhr.audits[audit]?.numericValue ?? Number.NaN;
      runs.push({
        performance: score('performance'),
        accessibility: score('accessibility'),
        bestPractices: score('best-practices'),
        fcpMs: Math.round(value('first-contentful-paint')),
        lcpMs: Math.round(value('largest-contentful-paint')),
        tbtMs: Math.round(value('total-blocking-time')),
        cls: Number(value('cumulative-layout-shift').toFixed(3)),
        speedIndexMs: Math.round(value('speed-index')),
        interactiveMs: Math.round(value('interactive')),
      });
      // What cost points outside performance, so a failing figure says why.
      const missed = ['accessibility', 'best-practices'].flatMap((category) =>
        (lhr.categories[category]?.auditRefs ?? []).filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1).map((ref) => `${category}/${ref.id}`),
      );
      if (missed.length > 0) console.log(`Lighthouse ${path} run ${run + 1} missed: ${missed.join(', ')}`);
      if (signedIn) expect(lhr.finalDisplayedUrl, 'the dashboard run stayed signed in').toBe(`${system.baseUrl}${path}`);
      loads.push(loadPerCore());
    }
    const keys = Object.keys(runs[0]) as (keyof RunFigures)[];
    const mid = Object.fromEntries(keys.map((key) => [key, median(runs.map((run) => run[key]))])) as unknown as RunFigures;
    figures[name] = { runs, median: mid, loadPerCore: loads.map((load) => Number(load.toFixed(2))) };
    mkdirSync(join(REPORT, '..'), { recursive: true });
    writeFileSync(REPORT, JSON.stringify(figures, null, 2));

    const quiet = loads.every((load) => load < QUIET_LOAD_PER_CORE);
    console.log(
      `Lighthouse ${name} (median of ${RUNS}): performance ${mid.performance}, FCP ${mid.fcpMs} ms, LCP ${mid.lcpMs} ms, TBT ${mid.tbtMs} ms, CLS ${mid.cls}, ` +
        `speed index ${mid.speedIndexMs} ms, interactive ${mid.interactiveMs} ms, accessibility ${mid.accessibility}, best practices ${mid.bestPractices}; ` +
        `load per core ${figures[name].loadPerCore.join(' / ')} on ${cpus().length} cores: ` +
        (quiet ? 'quiet, performance thresholds applied' : `busy (not all under ${QUIET_LOAD_PER_CORE}), performance thresholds reported only`),
    );

    expect.soft(mid.cls, `${name}: CLS`).toBeLessThanOrEqual(THRESHOLDS.cls);
    expect.soft(mid.accessibility, `${name}: accessibility`).toBe(THRESHOLDS.accessibility);
    expect.soft(mid.bestPractices, `${name}: best practices`).toBeGreaterThanOrEqual(THRESHOLDS.bestPractices);
    if (quiet) {
      expect.soft(mid.performance, `${name}: performance`).toBeGreaterThanOrEqual(THRESHOLDS.performance);
      expect.soft(mid.lcpMs, `${name}: LCP`).toBeLessThanOrEqual(THRESHOLDS.lcpMs);
      expect.soft(mid.tbtMs, `${name}: TBT`).toBeLessThanOrEqual(THRESHOLDS.tbtMs);
    }
  }

  it('the landing page', async () => {
    await audit('landing', '/', false);
  });

  it('the signed-in dashboard', async () => {
    await audit('dashboard', '/loan-app', true);
  });
});

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, runnerImport, type Alias, type Plugin, type PluginOption } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const API_ORIGIN = 'http://127.0.0.1:3000';

const aliases: Alias[] = [
  // The browser bundles the shared rules from their sources, so no contracts build is needed first.
  { find: /^@honeylend\/contracts$/, replacement: fileURLToPath(new URL('../contracts/src/index.ts', import.meta.url)) },
];

/**
 * React Router 7 resolves to its development build in every build (its package exports name no
 * production condition: remix-run/react-router#12532, #14102), dev warnings and all; the browser
 * build takes its production build, the same code with the warnings off (about 2 KB gzipped less).
 */
const reactRouterBuilds = join(dirname(createRequire(import.meta.url).resolve('react-router')), '..');
const productionReactRouter: Alias[] = [
  { find: /^react-router$/, replacement: join(reactRouterBuilds, 'production', 'index.mjs') },
  { find: /^react-router\/dom$/, replacement: join(reactRouterBuilds, 'production', 'dom-export.mjs') },
];

/** Runs one of the app's prerender modules in Node, through Vite's module runner (react-dom/server). */
async function prerenderModule<Module>(path: string): Promise<Module> {
  const { module } = await runnerImport<Module>(fileURLToPath(new URL(path, import.meta.url)), {
    configFile: false,
    logLevel: 'error',
    resolve: { alias: process.env.VITEST ? aliases : [...aliases, ...productionReactRouter] },
  });
  return module;
}

/** Replaces a page's placeholder, failing the build when the page has lost it. */
function fill(html: string, page: string, placeholder: string, content: string): string {
  if (!html.includes(placeholder)) throw new Error(`${page} has lost the placeholder ${placeholder} of its prerendered content`);
  return html.replace(placeholder, () => content);
}

/**
 * Two pages prerendered (issue 20): at build time the app's own components draw them (in Node,
 * with react-dom/server) and the markup goes into the page.
 * - The landing (index.html, served at /), drawn for a visitor (src/borrower/landing/prerender.tsx),
 *   with the visitor's menu as a template. Its script (src/landing.ts) adds the behaviour without
 *   React, so the landing's first load is that script alone.
 * - The signed-in dashboard's frame (dashboard.html, served at /loan-app), drawn while the member's
 *   data loads (src/borrower/dashboard/prerender.tsx). Its script is the app's: it hydrates the
 *   frame once the session and the dashboard's chunk are in (src/boot.tsx).
 * Every other address is app.html, the app with an empty page. The development server skips this:
 * the landing's script finds no prerendered page and starts the app, and so does the app.
 */
function prerenderPages(): Plugin {
  return {
    name: 'honeylend:prerender-pages',
    apply: 'build',
    transformIndexHtml: {
      order: 'pre',
      async handler(html, context) {
        if (context.path === '/index.html') {
          const { renderLanding } = await prerenderModule<typeof import('./src/borrower/landing/prerender')>('./src/borrower/landing/prerender.tsx');
          const { page, menu } = renderLanding();
          const withPage = fill(html, 'index.html', '<div id="root"><!--landing--></div>', `<div id="root" data-landing="static">${page}</div>`);
          return fill(withPage, 'index.html', '<!--landing-menu-->', `<template id="landing-menu">${menu}</template>`);
        }
        if (context.path === '/dashboard.html') {
          const { renderDashboardFrame } = await prerenderModule<typeof import('./src/borrower/dashboard/prerender')>('./src/borrower/dashboard/prerender.tsx');
          // Inert and hidden from assistive technology until the app has hydrated it (its FrameCover).
          const frame = renderDashboardFrame();
          return fill(html, 'dashboard.html', '<div id="root"><!--dashboard--></div>', `<div id="root" data-prerendered="dashboard">${frame}</div>`);
        }
        return html;
      },
    },
  };
}

/**
 * Installable and resilient (issue 20): the web app manifest and a Workbox service worker.
 * - Precached at install: the pages (the prerendered landing and dashboard, app.html, the offline page), icons,
 *   styles and the landing's scripts. Other hashed assets are cached as they are used (cache first:
 *   their names change with their content), so a borrower's phone never downloads the console.
 * - Page loads go to the network; with the network gone the offline page is shown.
 * - API answers (personal data) and the socket are never handled by the worker, so never cached.
 * - A new version waits for the next visit (no skipWaiting); the page shows a toast meanwhile.
 */
/**
 * The hashed assets precached, read from the build's manifest: the landing's first load (index.html's
 * entry chunk, its static imports and their styles) and the styles of app.html's first load. The
 * rest (the app's scripts, the console's) is cached as it is used.
 */
function precachedAssets(): Set<string> {
  const manifestPath = fileURLToPath(new URL('./dist/.vite/manifest.json', import.meta.url));
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, { file: string; css?: string[]; imports?: string[] }>;
  const assets = new Set<string>();
  const visit = (key: string, withScripts: boolean, seen = new Set<string>()) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    if (withScripts) assets.add(chunk.file);
    for (const css of chunk.css ?? []) assets.add(css);
    for (const imported of chunk.imports ?? []) visit(imported, withScripts, seen);
  };
  visit('index.html', true);
  visit('app.html', false);
  return assets;
}

const progressiveWebApp = VitePWA({
  registerType: 'prompt',
  injectRegister: false,
  manifest: {
    name: 'Honeylend',
    short_name: 'Honeylend',
    description: 'Effortless borrowing, smooth as honey. Loans from 80,000 PHP up to 4,000,000 PHP.',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    theme_color: '#f2a516',
    background_color: '#fff8e6',
    lang: 'en',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    globPatterns: ['index.html', 'app.html', 'dashboard.html', 'offline.html', 'favicon.svg', 'assets/*.css', 'assets/*.js'],
    // Of the hashed assets, only the landing's first load and the app's styles (precachedAssets).
    manifestTransforms: [
      (entries) => {
        const assets = precachedAssets();
        return { manifest: entries.filter((entry) => !entry.url.startsWith('assets/') || assets.has(entry.url)), warnings: [] };
      },
    ],
    // The shell is precached; a page load itself goes to the network (below), never a stale index.html.
    sourcemap: false,
    navigateFallback: null,
    cleanupOutdatedCaches: true,
    clientsClaim: true,
    skipWaiting: false,
    runtimeCaching: [
      {
        urlPattern: ({ request, url }) => request.mode === 'navigate' && !url.pathname.startsWith('/api/'),
        handler: 'NetworkOnly',
        options: { precacheFallback: { fallbackURL: '/offline.html' } },
      },
      {
        urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
        handler: 'CacheFirst',
        options: { cacheName: 'honeylend-assets', expiration: { maxEntries: 80, maxAgeSeconds: 30 * 24 * 60 * 60 } },
      },
    ],
  },
});

export default defineConfig({
  // The unit tests (vitest reads this file) need no service worker.
  plugins: [react(), ...(process.env.VITEST ? [] : [prerenderPages(), progressiveWebApp as PluginOption])],
  resolve: { alias: process.env.VITEST ? aliases : [...aliases, ...productionReactRouter] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Both read by scripts/checkBundleSize.mjs (the first-load budgets: what each chunk was built
    // from), which then removes them: neither is shipped.
    manifest: true,
    sourcemap: 'hidden',
    // Every browser the app supports has <link rel="modulepreload"> (Chrome 66, Safari 17, Firefox 115): no polyfill in each page's script.
    modulePreload: { polyfill: false },
    // Three pages: the prerendered landing (index.html, served at /), the dashboard with its
    // prerendered frame (dashboard.html, served at /loan-app) and the app (app.html, served for
    // every other address; command-api/src/platform/web/staticWeb.ts). The last two load the same script.
    rolldownOptions: {
      input: {
        index: fileURLToPath(new URL('./index.html', import.meta.url)),
        app: fileURLToPath(new URL('./app.html', import.meta.url)),
        dashboard: fileURLToPath(new URL('./dashboard.html', import.meta.url)),
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: API_ORIGIN, changeOrigin: true },
      '/socket.io': { target: API_ORIGIN, changeOrigin: true, ws: true },
    },
  },
});

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

/**
 * The landing page, prerendered (issue 20): at build time the app's own components draw it for a
 * visitor (src/borrower/landing/prerender.tsx, run in Node through Vite's module runner with
 * react-dom/server) and the markup goes into index.html, with the visitor's menu as a template.
 * The page's script (src/landing.ts) adds the behaviour without React, so the landing's first
 * load is that script alone; every other address is app.html, the React app. The development
 * server skips this: its landing script finds no prerendered page and starts the app.
 */
function prerenderLanding(): Plugin {
  return {
    name: 'honeylend:prerender-landing',
    apply: 'build',
    transformIndexHtml: {
      order: 'pre',
      async handler(html, context) {
        if (context.path !== '/index.html') return html;
        type Prerender = typeof import('./src/borrower/landing/prerender');
        const { module } = await runnerImport<Prerender>(fileURLToPath(new URL('./src/borrower/landing/prerender.tsx', import.meta.url)), {
          configFile: false,
          logLevel: 'error',
          resolve: { alias: process.env.VITEST ? aliases : [...aliases, ...productionReactRouter] },
        });
        const { page, menu } = module.renderLanding();
        if (!html.includes('<div id="root"><!--landing--></div>') || !html.includes('<!--landing-menu-->')) {
          throw new Error('index.html has lost the placeholders of the prerendered landing page');
        }
        return html
          .replace('<div id="root"><!--landing--></div>', () => `<div id="root" data-landing="static">${page}</div>`)
          .replace('<!--landing-menu-->', () => `<template id="landing-menu">${menu}</template>`);
      },
    },
  };
}

/**
 * Installable and resilient (issue 20): the web app manifest and a Workbox service worker.
 * - Precached at install: the pages (the prerendered landing, app.html, the offline page), icons,
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
    globPatterns: ['index.html', 'app.html', 'offline.html', 'favicon.svg', 'assets/*.css', 'assets/*.js'],
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
  plugins: [react(), ...(process.env.VITEST ? [] : [prerenderLanding(), progressiveWebApp as PluginOption])],
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
    // Two pages: the prerendered landing (index.html, served at /) and the app (app.html, served
    // for every other address; command-api/src/web/staticWeb.ts).
    rolldownOptions: {
      input: {
        index: fileURLToPath(new URL('./index.html', import.meta.url)),
        app: fileURLToPath(new URL('./app.html', import.meta.url)),
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

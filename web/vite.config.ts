import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type PluginOption } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const API_ORIGIN = 'http://127.0.0.1:3000';

/**
 * Installable and resilient (issue 20): the web app manifest and a Workbox service worker.
 * - Precached at install: the app shell (index.html, the offline page, icons, styles) and the
 *   landing's first-load scripts. Other hashed assets are cached as they are used (cache first:
 *   their names change with their content), so a borrower's phone never downloads the console.
 * - Page loads go to the network; with the network gone the offline page is shown.
 * - API answers (personal data) and the socket are never handled by the worker, so never cached.
 * - A new version waits for the next visit (no skipWaiting); the page shows a toast meanwhile.
 */
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
    globPatterns: [
      'index.html',
      'offline.html',
      'favicon.svg',
      'assets/index-*.css',
      // The landing's first load: the entry and the small shared chunks it imports (React, the JSX runtime, rolldown's runtime).
      'assets/{index,react,jsx-runtime,rolldown-runtime}-*.js',
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
  plugins: [react(), ...(process.env.VITEST ? [] : [progressiveWebApp as PluginOption])],
  resolve: {
    alias: [
      // The browser bundles the shared rules from their sources, so no contracts build is needed first.
      { find: /^@honeylend\/contracts$/, replacement: fileURLToPath(new URL('../contracts/src/index.ts', import.meta.url)) },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Both read by scripts/checkBundleSize.mjs (the first-load budgets: what each chunk was built
    // from), which then removes them: neither is shipped.
    manifest: true,
    sourcemap: 'hidden',
  },
  server: {
    proxy: {
      '/api': { target: API_ORIGIN, changeOrigin: true },
      '/socket.io': { target: API_ORIGIN, changeOrigin: true, ws: true },
    },
  },
});

import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    resolve: {
      // vite-plugin-pwa's virtual module exists only in the build; the tests get a recording stand-in.
      alias: [{ find: /^virtual:pwa-register$/, replacement: fileURLToPath(new URL('./src/testing/pwaRegisterStub.ts', import.meta.url)) }],
    },
    test: {
      environment: './src/testing/jsdomEnvironment.js',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['src/testing/setup.ts'],
      clearMocks: true,
      restoreMocks: true,
      unstubGlobals: true,
      // The first render of an antd page in jsdom imports and transforms most of antd: seconds on a
      // busy 2-core machine. A functional timeout, not a speed target (speed lives in npm run bench).
      testTimeout: 30_000,
    },
  }),
);

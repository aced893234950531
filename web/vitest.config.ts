import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
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

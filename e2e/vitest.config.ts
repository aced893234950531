import { defineConfig } from 'vitest/config';

/**
 * The browser tests: each file starts the real system (the built `lending start`) and drives it in
 * Chromium. Files run one after another: each holds a browser and a whole system.
 */
export default defineConfig({
  test: {
    include: ['src/**/*.e2e.spec.ts'],
    globalSetup: ['./src/support/globalSetup.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});

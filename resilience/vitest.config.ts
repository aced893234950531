import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Like the server tests, the checks run against the TypeScript sources of the other workspaces.
const workspaces = ['contracts', 'observability', 'eventstore', 'projections', 'workers', 'command-api', 'cli'];
const sourceOf = (name: string) => fileURLToPath(new URL(`../${name}/src/index.ts`, import.meta.url));

/**
 * One check per file. Files run one after another: several start whole systems or kill processes,
 * and their figures (latencies, catch-up times) mean little when they compete for two cores.
 */
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@honeylend\/contracts\/server$/, replacement: fileURLToPath(new URL('../contracts/src/server.ts', import.meta.url)) },
      ...workspaces.map((name) => ({ find: new RegExp(`^@honeylend/${name}$`), replacement: sourceOf(name) })),
    ],
  },
  test: {
    include: ['src/**/*.resilience.spec.ts'],
    globalSetup: ['./src/support/globalSetup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests run against the TypeScript sources of sibling workspaces, not their build output.
const workspaces = ['contracts', 'observability', 'eventstore', 'projections', 'workers', 'command-api', 'cli'];
// The bench's own logic (open-loop scheduler, load classification) is tested too; nothing imports it as a package.
const testedOnly = ['bench'];
const sourceOf = (name: string) => fileURLToPath(new URL(`./${name}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      // Node-only helpers of contracts (crypto), kept apart so the browser bundle never pulls them in.
      { find: /^@honeylend\/contracts\/server$/, replacement: fileURLToPath(new URL('./contracts/src/server.ts', import.meta.url)) },
      ...workspaces.map((name) => ({ find: new RegExp(`^@honeylend/${name}$`), replacement: sourceOf(name) })),
    ],
  },
  test: {
    include: [`{${[...workspaces, ...testedOnly].join(',')}}/src/**/*.spec.ts`],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['./vitest.globalSetup.ts'],
  },
});

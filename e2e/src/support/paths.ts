import { fileURLToPath } from 'node:url';

const repo = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

export const paths = {
  repoRoot: repo(''),
  lendingCli: repo('cli/bin/lending.js'),
  cliBuild: repo('cli/dist/main.js'),
  webIndex: repo('web/dist/index.html'),
  /** Debian's Chromium (no browser download); CHROMIUM_PATH overrides it. */
  chromium: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
};

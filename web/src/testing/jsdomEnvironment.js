import { populateGlobal } from 'vitest/runtime';

/**
 * The browser environment of the component tests. Vitest's built-in 'jsdom' environment imports
 * jsdom from Vitest's own folder, and npm installed jsdom under web/node_modules, out of its reach;
 * this does the same set-up with the jsdom this workspace resolves, wherever npm puts it.
 * Written in JavaScript because jsdom ships no type declarations.
 *
 * @type {import('vitest/runtime').Environment}
 */
export default {
  name: 'jsdom',
  viteEnvironment: 'client',
  async setup(global) {
    const { JSDOM } = await import('jsdom');
    const dom = new JSDOM('<!DOCTYPE html>', { url: 'http://localhost:3000/', pretendToBeVisual: true });
    const { keys, originals } = populateGlobal(global, dom.window, { bindFunctions: true });
    return {
      teardown(global) {
        dom.window.close();
        for (const key of keys) delete global[key];
        for (const [key, value] of originals) global[key] = value;
      },
    };
  },
};

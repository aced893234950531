import { vi } from 'vitest';

/**
 * antd's forms ask for the screen's breakpoints (matchMedia) and its auto-sized text areas watch
 * their size (ResizeObserver); jsdom has neither. Stubbed per test, so screens that test for
 * matchMedia themselves (the landing carousel) still see jsdom as it is elsewhere.
 */
export function provideBrowserApisAntdNeeds(): void {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false }));
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
}

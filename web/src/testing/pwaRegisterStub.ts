import type { RegisterSWOptions } from 'vite-plugin-pwa/types';

// Stands in for vite-plugin-pwa's virtual module in the unit tests (the plugin only runs in the
// build): it keeps what the app registered with, so a test can play the worker's events.
export const registrations: RegisterSWOptions[] = [];

export function registerSW(options: RegisterSWOptions = {}): (reloadPage?: boolean) => Promise<void> {
  registrations.push(options);
  return async () => undefined;
}

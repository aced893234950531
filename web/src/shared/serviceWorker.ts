import { registerSW } from 'virtual:pwa-register';
import { NEW_VERSION_TOAST } from './newVersionNotice';
import { toast } from './toast/toastStore';

export { NEW_VERSION_TOAST };

/**
 * Registers the service worker (issue 20). A new version installs in the background and waits:
 * it takes over on the next visit, never under a borrower in the middle of something, and the
 * page says so once.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  registerSW({
    immediate: true,
    onNeedRefresh() {
      toast({ ...NEW_VERSION_TOAST, durationMs: 10_000 });
    },
    onRegisterError(error: unknown) {
      console.error('The service worker could not be registered', error);
    },
  });
}

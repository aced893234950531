import { afterEach, describe, expect, it } from 'vitest';
import { registrations } from '../testing/pwaRegisterStub';
import { NEW_VERSION_TOAST, registerServiceWorker } from './serviceWorker';
import { useToasts } from './toast/toastStore';

describe('the service worker registration (issue 20)', () => {
  afterEach(() => {
    registrations.length = 0;
    useToasts.setState(useToasts.getInitialState());
  });

  it('registers at once, and says a new version is ready (for the next visit) when one is waiting', () => {
    Object.defineProperty(navigator, 'serviceWorker', { value: {}, configurable: true });
    registerServiceWorker();
    expect(registrations).toHaveLength(1);
    expect(registrations[0]?.immediate).toBe(true);
    expect(useToasts.getState().toasts).toEqual([]);

    registrations[0]?.onNeedRefresh?.();
    expect(useToasts.getState().toasts.map((toast) => ({ title: toast.title, description: toast.description }))).toEqual([NEW_VERSION_TOAST]);
  });
});

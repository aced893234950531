import { lazy, type ComponentType } from 'react';

// Route splitting (issue 20): the landing page's first load holds only the shell and the landing
// screen. Sign-in is a chunk of its own, fetched when the visitor is likely to need it; the
// signed-in app is another, fetched once sign-in starts so it is there when the session is.

/** A chunk fetched once, whose module is remembered so later renders need not wait for it. */
function chunk<Module>(load: () => Promise<Module>) {
  let loaded: Module | undefined;
  let pending: Promise<Module> | undefined;
  return {
    load: () => (pending ??= load().then((module) => (loaded = module))),
    loaded: () => loaded,
  };
}

/**
 * A lazy screen. Once its chunk is in (prefetched), the factory hands React a thenable that
 * resolves at once, so the screen draws in the same render instead of flashing its placeholder.
 */
function lazyScreen<Module>(from: ReturnType<typeof chunk<Module>>, pick: (module: Module) => ComponentType) {
  return lazy(() => {
    const module = from.loaded();
    if (module !== undefined) {
      const ready = { then: (resolve: (value: { default: ComponentType }) => void) => resolve({ default: pick(module) }) };
      return ready as unknown as Promise<{ default: ComponentType }>;
    }
    return from.load().then((loadedModule) => ({ default: pick(loadedModule) }));
  });
}

// A loan's page (schedule, payments) is reached from the wallet: fetched after the signed-in app.
const loanPage = chunk(() => Promise.all([import('./pages/LoanPage'), import('../shared/zodWithoutEval')]).then(([module]) => module));
const signedInApp = chunk(() =>
  import('./signedInScreens').then((module) => {
    void loanPage.load();
    return module;
  }),
);
// Once the sign-in screen is there, signing in has started: the signed-in app follows in the background.
const signIn = chunk(() =>
  Promise.all([import('./auth/AuthPage'), import('../shared/zodWithoutEval')]).then(([module]) => {
    void signedInApp.load();
    return module;
  }),
);

export const AuthPage = lazyScreen(signIn, (module) => module.AuthPage);
export const DashboardPage = lazyScreen(signedInApp, (module) => module.DashboardPage);
export const WalletPage = lazyScreen(signedInApp, (module) => module.WalletPage);
export const ProfilePage = lazyScreen(signedInApp, (module) => module.ProfilePage);
export const LoanPage = lazyScreen(loanPage, (module) => module.LoanPage);

/** Starts fetching the sign-in chunk (the visitor points at or focuses a link to it). */
export function prefetchSignIn(): void {
  void signIn.load();
}

/** Starts fetching the signed-in app (sign-in has started, or a session is being restored). */
export function prefetchSignedInApp(): void {
  void signedInApp.load();
}

/** The borrower chunks, fetched and remembered (tests render the whole app synchronously). */
export async function loadBorrowerScreens(): Promise<void> {
  await Promise.all([signIn.load(), signedInApp.load(), loanPage.load()]);
}

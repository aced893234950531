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

// The dashboard is the signed-in app's first screen; the wallet, the profile and a loan's page
// (schedule, payments) are chunks of their own, fetched in the background once the dashboard's
// chunk is in and the browser is idle, so tapping their tab does not wait for the network.
const loanPage = chunk(() => Promise.all([import('./pages/LoanPage'), import('../shared/zodWithoutEval')]).then(([module]) => module));
const walletScreen = chunk(() => import('./walletScreen'));
// The landing page is static HTML for a visitor (index.html, issue 20); the app draws it only for a
// stored session or after a client-side move to / (sign-out, the 404 page's link home).
const landingScreen = chunk(() => import('./pages/LandingPage'));
const profileScreen = chunk(() => import('./profileScreen'));
// No window when the build prerenders the dashboard's frame in Node (dashboard/prerender.tsx): nothing to prefetch there.
const whenIdle = (work: () => void) => {
  if (typeof window === 'undefined') return;
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(work, { timeout: 3_000 });
  else window.setTimeout(work, 1_000);
};
const signedInApp = chunk(() =>
  import('./signedInScreens').then((module) => {
    whenIdle(() => {
      void walletScreen.load();
      void profileScreen.load();
      void loanPage.load();
      void landingScreen.load();
      void import('./loans/lazyApplyLoanDialog').then((module) => module.prefetchApplyLoanDialog());
    });
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
export const WalletPage = lazyScreen(walletScreen, (module) => module.WalletPage);
export const ProfilePage = lazyScreen(profileScreen, (module) => module.ProfilePage);
export const LoanPage = lazyScreen(loanPage, (module) => module.LoanPage);
export const LandingPage = lazyScreen(landingScreen, (module) => module.LandingPage);

/** Starts fetching the sign-in chunk (the visitor points at or focuses a link to it). */
export function prefetchSignIn(): void {
  void signIn.load();
}

/** Starts fetching the landing screen (the app starts at /). */
export function prefetchLanding(): void {
  void landingScreen.load();
}

/**
 * Fetches the signed-in app's chunk once (sign-in has started, or a session is being restored) and
 * settles when it is in; the dashboard's page waits on it before it draws over its frame.
 */
export function loadSignedInApp(): Promise<unknown> {
  return signedInApp.load();
}

/** The borrower chunks, fetched and remembered (tests render the whole app synchronously). */
export async function loadBorrowerScreens(): Promise<void> {
  await Promise.all([
    signIn.load(),
    signedInApp.load(),
    walletScreen.load(),
    profileScreen.load(),
    loanPage.load(),
    landingScreen.load(),
    import('./loans/lazyApplyLoanDialog').then((module) => module.prefetchApplyLoanDialog()),
  ]);
}

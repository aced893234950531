import { renderToStaticMarkup } from 'react-dom/server';
import { Route, Routes, StaticRouter } from 'react-router-dom';
import { Toaster } from '../../shared/toast/Toaster';
import { BorrowerShell } from '../BorrowerShell';
import { SideMenu } from '../components/SideMenu';
import { LandingPage } from '../pages/LandingPage';
import { useSession } from '../stores/session';

/**
 * The landing page as static HTML, rendered at build time (issue 20) by the same components the
 * app draws at `/` for a visitor: the shell (skip link, top bar, main), the landing screen and the
 * toaster's empty region. index.html ships it with a small script (src/landing.ts) for what it
 * does on its own — the carousel and its pause control, the menu, the offline notice, the
 * lender's footer — so a visitor's phone downloads no React until sign-in or registration.
 * Called by the build (vite.config.ts) through Vite's module runner, in Node.
 */
export function renderLanding(): { page: string; menu: string } {
  // A visitor with no stored session: the shell draws at once, signed out (no spinner, no tab bar).
  // A server render reads a zustand store's initial state (useSyncExternalStore's server
  // snapshot), so that is the state set here; this runs in the build's Node process only.
  const visitor = { user: null, staffRole: null, loading: false };
  Object.assign(useSession.getInitialState(), visitor);
  useSession.setState(visitor);
  // The page is drawn as online (the offline notice is the script's). Node 20 has no navigator;
  // one is lent for the render only.
  const lent = typeof navigator === 'undefined';
  if (lent) Object.defineProperty(globalThis, 'navigator', { value: { onLine: true }, configurable: true });
  try {
    return draw();
  } finally {
    if (lent) Reflect.deleteProperty(globalThis, 'navigator');
  }
}

function draw(): { page: string; menu: string } {
  const page = renderToStaticMarkup(
    <StaticRouter location="/">
      <Routes>
        <Route element={<BorrowerShell />}>
          <Route index element={<LandingPage />} />
        </Route>
      </Routes>
      <Toaster />
    </StaticRouter>,
  );
  // The visitor's menu, as the app draws it open; the landing script shows a copy of it.
  const menu = renderToStaticMarkup(
    <StaticRouter location="/">
      <SideMenu open onClose={() => undefined} />
    </StaticRouter>,
  );
  return { page, menu };
}

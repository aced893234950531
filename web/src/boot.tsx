import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './App';
import { drawSessionAsFrame, FrameCover } from './borrower/dashboard/frame';
import { loadSignedInApp, prefetchLanding, prefetchSignIn } from './borrower/lazyScreens';
import { useSession } from './borrower/stores/session';
import { readToken, staffRoleOf } from './shared/authToken';
import { formatPesoAmount } from './shared/money';
import './styles.css';
import './screens.css';

let booted = false;

/**
 * Starts the app in #root: the session check, live updates, the service worker and the first
 * render. app.html's script calls it at once; the prerendered landing page (index.html, issue 20)
 * calls it only when the app is needed there (a stored session, or a page that is not the
 * landing), and otherwise only imports this module to prefetch the sign-in screen.
 */
export function boot(): void {
  if (booted) return;
  booted = true;
  const root = document.getElementById('root');
  if (!root) throw new Error('the page has no #root element');

  // Live updates follow the session: a socket and the member's data while a borrower is signed in.
  // The socket client and the member stores are a chunk of their own, loaded when a session exists
  // (issue 20: a visitor's landing page never downloads them); once started they follow the session
  // themselves, through sign-out and the next sign-in.
  let liveUpdatesLoading = false;
  const startLiveUpdatesOnSignIn = () => {
    if (liveUpdatesLoading || !useSession.getState().user) return;
    liveUpdatesLoading = true;
    unsubscribe();
    void loadSignedInApp();
    void import('./borrower/stores/liveUpdates').then(({ startLiveUpdates }) => startLiveUpdates());
  };
  const unsubscribe = useSession.subscribe(startLiveUpdatesOnSignIn);
  // A stored borrower token: the signed-in app is almost certainly next, so fetch it alongside the
  // check — from a task of its own: naming its files to the browser (Vite's preload links, a few
  // dozen) lengthened the app's first task, the page's longest on a phone (issue 20).
  const storedToken = readToken();
  const borrowerSession = storedToken !== null && !staffRoleOf(storedToken);
  const signedInApp = borrowerSession ? new Promise((resolve) => window.setTimeout(resolve, 0)).then(loadSignedInApp) : null;
  // Started on the landing page's address (a stored session there): its screen, alongside the check.
  if (window.location.pathname === '/') prefetchLanding();
  // A visitor pointing at, touching or tabbing to a sign-in link is about to need the sign-in chunk.
  const SIGN_IN_LINK = 'a[href^="/app-login"], a[href^="/login"]';
  const prefetchSignInFromLink = (event: Event) => {
    if (event.target instanceof Element && event.target.closest(SIGN_IN_LINK)) prefetchSignIn();
  };
  for (const type of ['pointerover', 'touchstart', 'focusin']) document.addEventListener(type, prefetchSignInFromLink, { passive: true });
  // The session check starts before the first render so the spinner shows for as short a time as possible.
  const sessionChecked = useSession.getState().start();
  // The page's first number formatter costs a phone tens of milliseconds (the locale's data): made
  // in a task of its own while the session check and the chunks are on their way, not inside the
  // app's first draw (the dashboard's converter and amounts), where it lengthened React's work.
  window.setTimeout(() => formatPesoAmount(0), 0);

  // The service worker (offline page, cached app shell) registers once the page has loaded, in a
  // chunk of its own, so it costs the first load nothing.
  // (Booted from the landing page, the page may have loaded already.)
  const registerWorker = () => void import('./shared/serviceWorker').then(({ registerServiceWorker }) => registerServiceWorker());
  if (document.readyState === 'complete') registerWorker();
  else window.addEventListener('load', registerWorker, { once: true });

  // The first draw is a transition, so React yields to the browser every few milliseconds while it
  // draws instead of holding the main thread for the whole app (a phone's tap waited on it: issue
  // 20's total blocking time).
  const draw = () => {
    const reactRoot = createRoot(root);
    startTransition(() =>
      reactRoot.render(
        <StrictMode>
          <BrowserRouter>
            <App />
          </BrowserRouter>
        </StrictMode>,
      ),
    );
  };
  // The dashboard's page (dashboard.html) arrives with the dashboard's frame prerendered (issue 20).
  // For a stored member session it stays on screen until the session is checked and the dashboard's
  // chunk is in; then, for a member, the app hydrates it (borrower/dashboard/frame.tsx): React adopts
  // the frame's markup — drawn with the frame's data, in a transition, so it yields to the browser —
  // and then draws the member's own parts into it, instead of replacing the whole page in one long
  // commit and layout. Anyone else gets the app drawn over it (a visitor, or a session the server
  // refused, sees the sign-in page).
  const hydrateFrame = () => {
    drawSessionAsFrame();
    startTransition(() => {
      hydrateRoot(
        root,
        <StrictMode>
          <BrowserRouter>
            <FrameCover>
              <App />
            </FrameCover>
          </BrowserRouter>
        </StrictMode>,
      );
    });
  };
  if (root.dataset.prerendered === 'dashboard' && signedInApp) {
    void Promise.allSettled([sessionChecked, signedInApp]).then(([, chunk]) => (chunk.status === 'fulfilled' && useSession.getState().user ? hydrateFrame() : draw()));
  } else draw();
}

export { prefetchSignIn };

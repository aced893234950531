// The landing page's script (index.html; issue 20). The page itself is static HTML rendered at
// build time from the app's own components (borrower/landing/prerender.tsx), so a visitor's first
// load is this script only: no React. React and the app load when they are needed — right away
// for a stored session (the signed-in shell draws the page) or any other address, and otherwise
// in the background when the visitor points at, touches or tabs to a sign-in or register link, so
// the sign-in page (app.html) opens from the browser's cache.
import { readToken } from './shared/authToken';
import { enhanceCarousel, enhanceMenu, enhanceOfflineNotice, showCompanyFooter, showNewVersionToast } from './borrower/landing/staticLanding';
import './styles.css';

const root = document.getElementById('root');
const prerendered = root?.dataset.landing === 'static' && window.location.pathname === '/';

const loadApp = () => import('./boot');

if (!prerendered || readToken()) {
  // The development server's page has no prerendered landing; a stored session (borrower or
  // staff) changes what the page shows. Either way the app draws it.
  void loadApp().then(({ boot }) => boot());
} else {
  const carousel = document.querySelector<HTMLElement>('.carousel');
  if (carousel) enhanceCarousel(carousel);
  const menuButton = document.querySelector<HTMLButtonElement>('.top-bar button[aria-haspopup="dialog"]');
  const menu = document.getElementById('landing-menu');
  if (menuButton && menu instanceof HTMLTemplateElement) enhanceMenu(menuButton, menu);
  const topBar = document.querySelector<HTMLElement>('.top-bar');
  if (topBar) enhanceOfflineNotice(topBar);
  const main = document.getElementById('main-content');
  if (main) void showCompanyFooter(main);

  const SIGN_IN_LINK = 'a[href^="/app-login"], a[href^="/login"]';
  let prefetched = false;
  const prefetchSignIn = (event: Event) => {
    if (prefetched || !(event.target instanceof Element && event.target.closest(SIGN_IN_LINK))) return;
    prefetched = true;
    void loadApp().then(({ prefetchSignIn: signIn }) => signIn());
  };
  for (const type of ['pointerover', 'touchstart', 'focusin']) document.addEventListener(type, prefetchSignIn, { passive: true });

  // The service worker (offline page, cached shell) registers once the page has loaded, in a chunk of its own.
  window.addEventListener(
    'load',
    () => {
      if (!('serviceWorker' in navigator)) return;
      void import('virtual:pwa-register').then(({ registerSW }) =>
        registerSW({
          immediate: true,
          onNeedRefresh() {
            const list = document.querySelector<HTMLElement>('.toaster__list');
            if (list) showNewVersionToast(list);
          },
          onRegisterError(error: unknown) {
            console.error('The service worker could not be registered', error);
          },
        }),
      );
    },
    { once: true },
  );
}

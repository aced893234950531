import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { App } from '../../App';
import { loadSignedInApp } from '../lazyScreens';
import { useSession } from '../stores/session';
import { drawSessionAsFrame, FRAME_SESSION, FrameCover } from './frame';

// The dashboard's chunk in, so its lazy screen draws at once (as it does in the browser by then).
// Loaded as this module is: the build imports it through a module runner that is closed after.
await loadSignedInApp();

/**
 * The signed-in dashboard's frame as HTML, rendered at build time (issue 20) by the app itself at
 * /loan-app, into dashboard.html, which the server sends for that address. On a phone the page then
 * shows at once what the app will show while the member's data loads — the shell, the tab bar, the
 * loan card loading, the carousel, the converter, the partner banks — instead of a blank page until
 * the app's script, the session check and the dashboard's chunk have all arrived; the app then
 * hydrates it (src/boot.tsx, ./frame.tsx).
 *
 * Nothing of any member is in it: it is drawn for a member without data (no id, no phone, no
 * balance), for whom the dashboard says nothing about verification. renderToString, not static
 * markup: hydration needs its Suspense and text markers. The tree is the one src/boot.tsx
 * hydrates. Called by the build (vite.config.ts) in Node.
 */
export function renderDashboardFrame(): string {
  drawSessionAsFrame();
  useSession.setState(FRAME_SESSION);
  const lent = typeof navigator === 'undefined';
  if (lent) Object.defineProperty(globalThis, 'navigator', { value: { onLine: true }, configurable: true });
  try {
    return renderToString(
      <StrictMode>
        <StaticRouter location="/loan-app">
          <FrameCover>
            <App />
          </FrameCover>
        </StaticRouter>
      </StrictMode>,
    );
  } finally {
    if (lent) Reflect.deleteProperty(globalThis, 'navigator');
  }
}

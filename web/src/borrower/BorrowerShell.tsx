import { lazy, useEffect } from 'react';
import { NavigationType, Outlet, useLocation, useNavigate, useNavigationType } from 'react-router-dom';
import { onAccountSuspended } from '../shared/api';
import { BottomTabBar } from './components/BottomTabBar';
import { LoadingScreen } from './components/LoadingScreen';
import { OfflineBanner } from './components/OfflineBanner';
import { TopBar } from './components/TopBar';
import { CompanyFooter } from './components/CompanyFooter';
import { useCompany } from '../shared/companyStore';
import { useSession } from './stores/session';
import { ScreenChunk } from './ScreenChunk';

// Seldom needed (a changed notice, a member an admin registered): a chunk of its own, out of the first load.
const ConsentGate = lazy(() => import('./privacy/ConsentGate').then((module) => ({ default: module.ConsentGate })));

/** Frame of every borrower screen: top bar with menu, the screen, and the tab bar while signed in. */
export function BorrowerShell() {
  const loading = useSession((state) => state.loading);
  const signedIn = useSession((state) => state.user !== null);
  // RA 10173: a member who has not consented to the notice in force reads it and accepts it before going on.
  const consentRequired = useSession((state) => state.user?.consentRequired === true);
  const navigate = useNavigate();

  useEffect(() => onAccountSuspended(() => void navigate('/app-login', { replace: true })), [navigate]);
  // The lender's details, once per visit: the footer and the operator card on every borrower page.
  useEffect(() => useCompany.getState().load(), []);

  // A new page starts at its top (the browser keeps the old scroll position otherwise); Back and
  // Forward (POP) leave the browser's own restoration alone.
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  useEffect(() => {
    if (navigationType !== NavigationType.Pop) window.scrollTo(0, 0);
  }, [pathname, navigationType]);

  if (loading) return <LoadingScreen />;
  return (
    <div className={`shell${signedIn ? ' shell--signed-in' : ''}`}>
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      <TopBar />
      <OfflineBanner />
      <main id="main-content" className="shell__main" tabIndex={-1}>
        {consentRequired ? (
          <ScreenChunk>
            <ConsentGate />
          </ScreenChunk>
        ) : (
          <Outlet />
        )}
      </main>
      <CompanyFooter />
      {signedIn && <BottomTabBar />}
    </div>
  );
}

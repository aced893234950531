import { useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router-dom';
import { onAccountSuspended } from '../shared/api';
import { BottomTabBar } from './components/BottomTabBar';
import { LoadingScreen } from './components/LoadingScreen';
import { TopBar } from './components/TopBar';
import { useSession } from './stores/session';

/** Frame of every borrower screen: top bar with menu, the screen, and the tab bar while signed in. */
export function BorrowerShell() {
  const loading = useSession((state) => state.loading);
  const signedIn = useSession((state) => state.user !== null);
  const navigate = useNavigate();

  useEffect(() => onAccountSuspended(() => navigate('/app-login', { replace: true })), [navigate]);

  if (loading) return <LoadingScreen />;
  return (
    <div className={`shell${signedIn ? ' shell--signed-in' : ''}`}>
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      <TopBar />
      <main id="main-content" className="shell__main" tabIndex={-1}>
        <Outlet />
      </main>
      {signedIn && <BottomTabBar />}
    </div>
  );
}

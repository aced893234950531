import { useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router-dom';
import { onAccountSuspended } from '../shared/api';
import { BottomTabBar } from './components/BottomTabBar';
import { LoadingScreen } from './components/LoadingScreen';
import { TopBar } from './components/TopBar';
import { CompanyFooter } from './components/CompanyFooter';
import { useCompany } from '../shared/companyStore';
import { useSession } from './stores/session';

/** Frame of every borrower screen: top bar with menu, the screen, and the tab bar while signed in. */
export function BorrowerShell() {
  const loading = useSession((state) => state.loading);
  const signedIn = useSession((state) => state.user !== null);
  const navigate = useNavigate();

  useEffect(() => onAccountSuspended(() => navigate('/app-login', { replace: true })), [navigate]);
  // The lender's details, once per visit: the footer and the operator card on every borrower page.
  useEffect(() => useCompany.getState().load(), []);

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
      <CompanyFooter />
      {signedIn && <BottomTabBar />}
    </div>
  );
}

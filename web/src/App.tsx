import { Navigate, Route, Routes } from 'react-router-dom';
import { AuthPage } from './borrower/auth/AuthPage';
import { BorrowerShell } from './borrower/BorrowerShell';
import { DashboardPage } from './borrower/pages/DashboardPage';
import { LandingPage } from './borrower/pages/LandingPage';
import { ProfilePage } from './borrower/pages/ProfilePage';
import { WalletPage } from './borrower/pages/WalletPage';
import { SignedInOnly } from './borrower/SignedInOnly';
import { NotFoundPage } from './shared/NotFoundPage';
import { Toaster } from './shared/toast/Toaster';

/** Every route of the app (spec §2). */
export function App() {
  return (
    <>
      <Routes>
        <Route element={<BorrowerShell />}>
          <Route index element={<LandingPage />} />
          <Route path="app-login" element={<AuthPage />} />
          <Route path="login" element={<AuthPage />} />
          <Route element={<SignedInOnly />}>
            <Route path="loan-app" element={<DashboardPage />} />
            <Route path="wallet" element={<WalletPage />} />
            <Route path="profile" element={<ProfilePage />} />
          </Route>
          <Route path="dashboard" element={<Navigate to="/loan-app" replace />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
      <Toaster />
    </>
  );
}

import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { AuthPage } from './borrower/auth/AuthPage';
import { BorrowerShell } from './borrower/BorrowerShell';
import { LoadingScreen } from './borrower/components/LoadingScreen';
import { DashboardPage } from './borrower/pages/DashboardPage';
import { LandingPage } from './borrower/pages/LandingPage';
import { ProfilePage } from './borrower/pages/ProfilePage';
import { WalletPage } from './borrower/pages/WalletPage';
import { LoanPage } from './borrower/pages/LoanPage';
import { SignedInOnly } from './borrower/SignedInOnly';
import { NotFoundPage } from './shared/NotFoundPage';
import { Toaster } from './shared/toast/Toaster';

// The admin console (Ant Design, charts) is its own chunk: a borrower's first load never fetches it.
const AdminLoginPage = lazy(() => import('./admin/login/AdminLoginPage'));
const ManagementApp = lazy(() => import('./admin/ManagementApp'));
// The auditor's workspace (issue 16) is a chunk of its own too.
const AuditApp = lazy(() => import('./audit/AuditApp'));

function AdminChunk({ children }: { children: ReactNode }) {
  return <Suspense fallback={<LoadingScreen />}>{children}</Suspense>;
}

/** Every route of the app (spec §2). */
export function App() {
  return (
    <>
      <Routes>
        <Route
          path="admin-login"
          element={
            <AdminChunk>
              <AdminLoginPage />
            </AdminChunk>
          }
        />
        <Route
          path="management/*"
          element={
            <AdminChunk>
              <ManagementApp />
            </AdminChunk>
          }
        />
        <Route
          path="audit/*"
          element={
            <AdminChunk>
              <AuditApp />
            </AdminChunk>
          }
        />
        <Route element={<BorrowerShell />}>
          <Route index element={<LandingPage />} />
          <Route path="app-login" element={<AuthPage />} />
          <Route path="login" element={<AuthPage />} />
          <Route element={<SignedInOnly />}>
            <Route path="loan-app" element={<DashboardPage />} />
            <Route path="wallet" element={<WalletPage />} />
            <Route path="profile" element={<ProfilePage />} />
            <Route path="loans/:loanId" element={<LoanPage />} />
          </Route>
          <Route path="dashboard" element={<Navigate to="/loan-app" replace />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
      <Toaster />
    </>
  );
}

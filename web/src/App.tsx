import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { BorrowerShell } from './borrower/BorrowerShell';
import { LoadingScreen } from './borrower/components/LoadingScreen';
import { AuthPage, DashboardPage, LandingPage, LoanPage, ProfilePage, WalletPage } from './borrower/lazyScreens';
import { ScreenChunk } from './borrower/ScreenChunk';
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
          <Route
            index
            element={
              <ScreenChunk>
                <LandingPage />
              </ScreenChunk>
            }
          />
          <Route
            path="app-login"
            element={
              <ScreenChunk>
                <AuthPage />
              </ScreenChunk>
            }
          />
          <Route
            path="login"
            element={
              <ScreenChunk>
                <AuthPage />
              </ScreenChunk>
            }
          />
          <Route element={<SignedInOnly />}>
            <Route
              path="loan-app"
              element={
                <ScreenChunk>
                  <DashboardPage />
                </ScreenChunk>
              }
            />
            <Route
              path="wallet"
              element={
                <ScreenChunk>
                  <WalletPage />
                </ScreenChunk>
              }
            />
            <Route
              path="profile"
              element={
                <ScreenChunk>
                  <ProfilePage />
                </ScreenChunk>
              }
            />
            <Route
              path="loans/:loanId"
              element={
                <ScreenChunk>
                  <LoanPage />
                </ScreenChunk>
              }
            />
          </Route>
          <Route path="dashboard" element={<Navigate to="/loan-app" replace />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
      <Toaster />
    </>
  );
}

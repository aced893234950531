import { App as AntApp, ConfigProvider } from 'antd';
import { useEffect, useState } from 'react';
import { Navigate, Route, Routes, useNavigate } from 'react-router-dom';
import { toast } from '../shared/toast/toastStore';
import { AccessDenied } from '../console/access/AccessDenied';
import { signOutStaff, storedStaffRole } from '../console/access/adminSession';
import type { StaffRole } from '../shared/authToken';
import { DesktopOnlyNotice } from '../console/access/DesktopOnlyNotice';
import { DESKTOP_MIN_WIDTH_PX, useViewportWidth } from '../console/access/useViewportWidth';
import { adminTheme } from '../console/adminTheme';
import { BorrowingPage } from './borrowing/BorrowingPage';
import { ApprovalsPage } from './approvals/ApprovalsPage';
import { AdminLayout } from './layout/AdminLayout';
import { ManagementNotFound } from './layout/ManagementNotFound';
import { StaffContext } from './layout/staffContext';
import { useAdminEvent, useAdminFeedConnection } from './live/adminFeed';
import { MembersPage } from './members/MembersPage';
import { SettingsPage } from './settings/SettingsPage';
import { CollectionsPage } from './servicing/CollectionsPage';
import { WithdrawalsPage } from './withdrawals/WithdrawalsPage';
import '../console/console.css';

/** On <body> while the window is narrower than the console needs. */
const NARROW_BODY_CLASS = 'management-narrow';

/** /management/*: desktop only, staff only (spec §2), then the console. */
export default function ManagementApp() {
  const width = useViewportWidth();
  const narrow = width < DESKTOP_MIN_WIDTH_PX;
  const [role, setRole] = useState(storedStaffRole);
  const consoleShown = !narrow && role !== null && role !== 'auditor';
  // antd draws dialogs and drawers outside the console's element: they hide with it (see console/console.css).
  useEffect(() => {
    document.body.classList.toggle(NARROW_BODY_CLASS, narrow);
    return () => document.body.classList.remove(NARROW_BODY_CLASS);
  }, [narrow]);
  let content;
  if (!role) content = narrow ? <DesktopOnlyNotice /> : <AccessDenied />;
  // The console changes things; an auditor reads the same data, masked, in the audit workspace.
  else if (role === 'auditor') content = narrow ? <DesktopOnlyNotice /> : <Navigate to="/audit" replace />;
  else {
    // Below 1024 px the console is hidden, not unmounted: an open dialog and what was typed in it
    // are still there when the window is wide again.
    content = (
      <>
        {narrow && <DesktopOnlyNotice />}
        <div className="management-console" hidden={!consoleShown} data-testid="management-console">
          <Console role={role} onSignedOut={() => setRole(null)} />
        </div>
      </>
    );
  }
  return (
    <ConfigProvider theme={adminTheme}>
      <AntApp>{content}</AntApp>
    </ConfigProvider>
  );
}

function Console({ role, onSignedOut }: { role: Exclude<StaffRole, 'auditor'>; onSignedOut: () => void }) {
  const navigate = useNavigate();
  useAdminFeedConnection();
  // The server ended this session (the account was deleted or its password changed).
  useAdminEvent('revoked', () => {
    signOutStaff();
    onSignedOut();
  });

  function logout() {
    signOutStaff();
    toast({ title: 'Logged out', description: 'You have been logged out successfully' });
    void navigate('/admin-login');
  }

  return (
    <StaffContext.Provider value={{ role }}>
      <Routes>
        <Route element={<AdminLayout onLogout={logout} />}>
          <Route index element={<MembersPage />} />
          <Route path="members" element={<MembersPage />} />
          <Route path="borrowing" element={<BorrowingPage />} />
          <Route path="withdrawal" element={<WithdrawalsPage />} />
          <Route path="approvals" element={<ApprovalsPage />} />
          <Route path="collections" element={<CollectionsPage />} />
          <Route path="settings" element={<SettingsPage />} />
          <Route path="dashboard" element={<Navigate to="/management" replace />} />
          <Route path="*" element={<ManagementNotFound />} />
        </Route>
      </Routes>
    </StaffContext.Provider>
  );
}

import { App as AntApp, ConfigProvider } from 'antd';
import { useState } from 'react';
import { Navigate, Route, Routes, useNavigate } from 'react-router-dom';
import { toast } from '../shared/toast/toastStore';
import { AccessDenied } from './access/AccessDenied';
import { signOutStaff, storedStaffRole } from './access/adminSession';
import type { StaffRole } from '../shared/authToken';
import { DesktopOnlyNotice } from './access/DesktopOnlyNotice';
import { DESKTOP_MIN_WIDTH_PX, useViewportWidth } from './access/useViewportWidth';
import { adminTheme } from './adminTheme';
import { BorrowingPage } from './borrowing/BorrowingPage';
import { AdminLayout } from './layout/AdminLayout';
import { ManagementNotFound } from './layout/ManagementNotFound';
import { StaffContext } from './layout/staffContext';
import { useAdminEvent, useAdminFeedConnection } from './live/adminFeed';
import { MembersPage } from './members/MembersPage';
import { SettingsPage } from './settings/SettingsPage';
import { CollectionsPage } from './servicing/CollectionsPage';
import { WithdrawalsPage } from './withdrawals/WithdrawalsPage';
import './admin.css';

/** /management/*: desktop only, staff only (spec §2), then the console. */
export default function ManagementApp() {
  const width = useViewportWidth();
  const [role, setRole] = useState(storedStaffRole);
  let content;
  if (width < DESKTOP_MIN_WIDTH_PX) content = <DesktopOnlyNotice />;
  else if (!role) content = <AccessDenied />;
  // The console changes things; an auditor reads the same data, masked, in the audit workspace.
  else if (role === 'auditor') content = <Navigate to="/audit" replace />;
  else content = <Console role={role} onSignedOut={() => setRole(null)} />;
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
    navigate('/admin-login');
  }

  return (
    <StaffContext.Provider value={{ role }}>
      <Routes>
        <Route element={<AdminLayout onLogout={logout} />}>
          <Route index element={<MembersPage />} />
          <Route path="members" element={<MembersPage />} />
          <Route path="borrowing" element={<BorrowingPage />} />
          <Route path="withdrawal" element={<WithdrawalsPage />} />
          <Route path="collections" element={<CollectionsPage />} />
          <Route path="settings" element={<SettingsPage />} />
          <Route path="dashboard" element={<Navigate to="/management" replace />} />
          <Route path="*" element={<ManagementNotFound />} />
        </Route>
      </Routes>
    </StaffContext.Provider>
  );
}

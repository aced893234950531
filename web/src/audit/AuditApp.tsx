import { App as AntApp, ConfigProvider, Result } from 'antd';
import { useState } from 'react';
import { Link, Navigate, Route, Routes, useNavigate } from 'react-router-dom';
import { toast } from '../shared/toast/toastStore';
import { AccessDenied } from '../console/access/AccessDenied';
import { signOutStaff, storedStaffRole } from '../console/access/adminSession';
import { DesktopOnlyNotice } from '../console/access/DesktopOnlyNotice';
import { DESKTOP_MIN_WIDTH_PX, useViewportWidth } from '../console/access/useViewportWidth';
import { adminTheme } from '../console/adminTheme';
import { AuditLayout } from './AuditLayout';
import { BookPage } from './book/BookPage';
import { CheckpointsPage } from './checkpoints/CheckpointsPage';
import { LogPage } from './log/LogPage';
import { StreamPage } from './stream/StreamPage';
import '../console/console.css';
import './audit.css';

/** /audit/*: the auditor's workspace (issue 16), desktop only, for auditors and the main admin. */
export default function AuditApp() {
  const width = useViewportWidth();
  const [role, setRole] = useState(storedStaffRole);
  let content;
  if (width < DESKTOP_MIN_WIDTH_PX) content = <DesktopOnlyNotice />;
  else if (!role) content = <AccessDenied />;
  else if (role === 'admin')
    content = (
      <Result
        status="403"
        title="For auditors"
        subTitle="The audit workspace is for auditors and the main admin. A stream's history is in the console's History drawer."
        extra={<Link to="/management">Back to the console</Link>}
      />
    );
  else content = <Workspace onSignedOut={() => setRole(null)} />;
  return (
    <ConfigProvider theme={adminTheme}>
      <AntApp>{content}</AntApp>
    </ConfigProvider>
  );
}

function Workspace({ onSignedOut }: { onSignedOut: () => void }) {
  const navigate = useNavigate();
  function logout() {
    signOutStaff();
    onSignedOut();
    toast({ title: 'Logged out', description: 'You have been logged out successfully' });
    void navigate('/admin-login');
  }
  return (
    <Routes>
      <Route element={<AuditLayout onLogout={logout} />}>
        <Route index element={<LogPage />} />
        <Route path="streams/:stream" element={<StreamPage />} />
        <Route path="book" element={<BookPage />} />
        <Route path="checkpoints" element={<CheckpointsPage />} />
        <Route path="*" element={<Navigate to="/audit" replace />} />
      </Route>
    </Routes>
  );
}

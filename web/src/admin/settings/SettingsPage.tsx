import { Space, Typography } from 'antd';
import { useDocumentTitle } from '../../shared/useDocumentTitle';
import { useIsMainAdmin } from '../layout/staffContext';
import { AdminAccounts } from './AdminAccounts';
import { IpRestrictions } from './IpRestrictions';

/** Spec §2 Settings: admin accounts for everyone to see, IP restrictions for the main admin only. */
export function SettingsPage() {
  useDocumentTitle('Settings');
  const isMainAdmin = useIsMainAdmin();
  return (
    <>
      <header className="admin-page__header">
        <Typography.Title level={1} style={{ fontSize: 26 }}>
          Settings
        </Typography.Title>
      </header>
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <AdminAccounts />
        {isMainAdmin && <IpRestrictions />}
      </Space>
    </>
  );
}

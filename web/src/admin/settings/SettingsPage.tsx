import { Space } from 'antd';
import { PageHeader } from '../../console/layout/PageHeader';
import { useIsMainAdmin } from '../layout/staffContext';
import { AdminAccounts } from './AdminAccounts';
import { IpRestrictions } from './IpRestrictions';
import { CompanySettings } from './CompanySettings';
import { ApprovalSettingsCard } from './ApprovalSettings';

/** Spec §2 Settings: admin accounts for everyone to see; the company details and IP restrictions for the main admin only. */
export function SettingsPage() {
  const isMainAdmin = useIsMainAdmin();
  return (
    <>
      <PageHeader title="Settings" />
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <AdminAccounts />
        {isMainAdmin && <CompanySettings />}
        {isMainAdmin && <ApprovalSettingsCard />}
        {isMainAdmin && <IpRestrictions />}
      </Space>
    </>
  );
}

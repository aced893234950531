import { AlertOutlined, AuditOutlined, BankOutlined, SettingOutlined, TeamOutlined, WalletOutlined } from '@ant-design/icons';
import { Badge } from 'antd';
import { useLocation } from 'react-router-dom';
import { useAdminStats } from '../live/useAdminStats';
import { StaffShell } from '../../console/layout/StaffShell';
import { usePendingApprovals } from '../approvals/usePendingApprovals';

/** The Withdrawal List entry with a live count of requests waiting to be paid out (issue 22, item 18). */
function withdrawalLabel(pending: number | undefined) {
  if (!pending) return 'Withdrawal List';
  return (
    <span className="admin-menu-badged">
      Withdrawal List <Badge count={pending} overflowCount={99} aria-label={`${pending} pending`} />
    </span>
  );
}

/** The Approvals entry with a live count of requests waiting for a second admin (four eyes, design §11). */
function approvalsLabel(pending: number | undefined) {
  if (!pending) return 'Approvals';
  return (
    <span className="admin-menu-badged">
      Approvals <Badge count={pending} overflowCount={99} aria-label={`${pending} waiting`} data-testid="approvals-badge" />
    </span>
  );
}

/** Spec §2's sidebar: Members, Borrowing List, Withdrawal List, Settings, Logout. */
export function AdminLayout({ onLogout }: { onLogout: () => void }) {
  const { pathname } = useLocation();
  const stats = useAdminStats();
  const pendingApprovals = usePendingApprovals();
  const selected = pathname === '/management' || pathname === '/management/' ? '/management/members' : pathname.replace(/\/$/, '');
  const pages = [
    { key: '/management/members', icon: <TeamOutlined />, label: 'Members' },
    { key: '/management/borrowing', icon: <BankOutlined />, label: 'Borrowing List' },
    { key: '/management/withdrawal', icon: <WalletOutlined />, label: withdrawalLabel(stats?.withdrawals.pending) },
    { key: '/management/approvals', icon: <AuditOutlined />, label: approvalsLabel(pendingApprovals) },
    { key: '/management/collections', icon: <AlertOutlined />, label: 'Collections' },
    { key: '/management/settings', icon: <SettingOutlined />, label: 'Settings' },
  ];

  return <StaffShell brand="Honeylend Admin" navLabel="Management" pages={pages} selected={selected} onLogout={onLogout} />;
}

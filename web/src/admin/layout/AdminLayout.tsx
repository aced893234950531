import { AlertOutlined, BankOutlined, SettingOutlined, TeamOutlined, WalletOutlined } from '@ant-design/icons';
import { useLocation } from 'react-router-dom';
import { StaffShell } from './StaffShell';

const PAGES = [
  { key: '/management/members', icon: <TeamOutlined />, label: 'Members' },
  { key: '/management/borrowing', icon: <BankOutlined />, label: 'Borrowing List' },
  { key: '/management/withdrawal', icon: <WalletOutlined />, label: 'Withdrawal List' },
  { key: '/management/collections', icon: <AlertOutlined />, label: 'Collections' },
  { key: '/management/settings', icon: <SettingOutlined />, label: 'Settings' },
];

/** Spec §2's sidebar: Members, Borrowing List, Withdrawal List, Settings, Logout. */
export function AdminLayout({ onLogout }: { onLogout: () => void }) {
  const { pathname } = useLocation();
  const selected = pathname === '/management' || pathname === '/management/' ? '/management/members' : pathname.replace(/\/$/, '');

  return <StaffShell brand="Honeylend Admin" navLabel="Management" pages={PAGES} selected={selected} onLogout={onLogout} />;
}

import { BankOutlined, LogoutOutlined, SettingOutlined, TeamOutlined, WalletOutlined } from '@ant-design/icons';
import { Layout, Menu, Typography } from 'antd';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';

const PAGES = [
  { key: '/management/members', icon: <TeamOutlined />, label: 'Members' },
  { key: '/management/borrowing', icon: <BankOutlined />, label: 'Borrowing List' },
  { key: '/management/withdrawal', icon: <WalletOutlined />, label: 'Withdrawal List' },
  { key: '/management/settings', icon: <SettingOutlined />, label: 'Settings' },
];
const LOGOUT = 'logout';

/** Spec §2's sidebar: Members, Borrowing List, Withdrawal List, Settings, Logout. */
export function AdminLayout({ onLogout }: { onLogout: () => void }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const selected = pathname === '/management' || pathname === '/management/' ? '/management/members' : pathname.replace(/\/$/, '');

  return (
    <Layout className="admin-shell">
      <Layout.Sider width={232} theme="light" className="admin-shell__sider">
        <Typography.Title level={4} className="admin-shell__brand">
          Honeylend Admin
        </Typography.Title>
        <nav aria-label="Management">
          <Menu
            mode="inline"
            selectedKeys={[selected]}
            items={[...PAGES, { type: 'divider' }, { key: LOGOUT, icon: <LogoutOutlined />, label: 'Logout', danger: true }]}
            onClick={({ key }) => (key === LOGOUT ? onLogout() : navigate(key))}
          />
        </nav>
      </Layout.Sider>
      <Layout.Content className="admin-shell__content">
        <Outlet />
      </Layout.Content>
    </Layout>
  );
}

import { LogoutOutlined } from '@ant-design/icons';
import { Layout, Menu, Typography, type MenuProps } from 'antd';
import type { ReactNode } from 'react';
import { Outlet, useNavigate } from 'react-router-dom';

export interface StaffPage {
  key: string;
  icon: ReactNode;
  label: ReactNode;
}

const LOGOUT = 'logout';

/** The staff side's frame (the console, the audit workspace): a brand, the pages and Logout on the left, the page on the right. */
export function StaffShell({ brand, navLabel, pages, selected, onLogout, above }: { brand: string; navLabel: string; pages: StaffPage[]; selected: string; onLogout: () => void; above?: ReactNode }) {
  const navigate = useNavigate();
  return (
    <Layout className="admin-shell">
      {/* As in the borrower app: the first Tab offers to skip the menu (issue 20, keyboard use). */}
      <a className="skip-link" href="#staff-content">
        Skip to content
      </a>
      <Layout.Sider width={232} theme="light" className="admin-shell__sider">
        <Typography.Title level={4} className="admin-shell__brand">
          {brand}
        </Typography.Title>
        <nav aria-label={navLabel}>
          <Menu
            mode="inline"
            selectedKeys={[selected]}
            items={[...pages.map(({ key, icon, label }): NonNullable<MenuProps['items']>[number] => ({ key, icon, label })), { type: 'divider' }, { key: LOGOUT, icon: <LogoutOutlined />, label: 'Logout', danger: true }]}
            onClick={({ key }) => (key === LOGOUT ? onLogout() : void navigate(key))}
          />
        </nav>
      </Layout.Sider>
      <Layout.Content id="staff-content" className="admin-shell__content" tabIndex={-1}>
        {above}
        <Outlet />
      </Layout.Content>
    </Layout>
  );
}

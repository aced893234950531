import { AuditOutlined, FileProtectOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useLocation } from 'react-router-dom';
import { StaffShell } from '../console/layout/StaffShell';
import { ChainBadge } from './chain/ChainBadge';

const PAGES = [
  { key: '/audit', icon: <UnorderedListOutlined />, label: 'Event log' },
  { key: '/audit/book', icon: <AuditOutlined />, label: 'Book as of a date' },
  { key: '/audit/checkpoints', icon: <FileProtectOutlined />, label: 'Signed checkpoints' },
];

/** The workspace's frame: its pages on the left, the chain's badge with Verify above every page. */
export function AuditLayout({ onLogout }: { onLogout: () => void }) {
  const path = useLocation().pathname.replace(/\/$/, '');
  const selected = path.startsWith('/audit/streams') ? '/audit' : path;
  return <StaffShell brand="Honeylend Audit" navLabel="Audit" pages={PAGES} selected={selected} onLogout={onLogout} above={<ChainBadge />} />;
}

import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router-dom';
import { SIDE_MENU_ID, SideMenu } from './SideMenu';
import { HoneylendMark, MenuIcon } from './icons';
import { useSession } from '../stores/session';

// The inbox is the signed-in member's only: a chunk of its own, kept off the landing page's first load.
const NotificationBell = lazy(() => import('./NotificationBell').then((module) => ({ default: module.NotificationBell })));

export function TopBar() {
  const [menuOpen, setMenuOpen] = useState(false);
  // A member with an id: the dashboard's prerendered frame is drawn for a member not yet known
  // (borrower/dashboard/frame.tsx), whose inbox is not there to show.
  const member = useSession((state) => Boolean(state.user?.id));
  return (
    <header className="top-bar">
      <Link to="/" className="top-bar__brand" aria-label="Honeylend home">
        <HoneylendMark size={30} />
        <span className="top-bar__name">Honeylend</span>
      </Link>
      {member && (
        <Suspense fallback={null}>
          <NotificationBell />
        </Suspense>
      )}
      <button type="button" className="icon-button" aria-label="Open menu" aria-haspopup="dialog" aria-expanded={menuOpen} aria-controls={menuOpen ? SIDE_MENU_ID : undefined} onClick={() => setMenuOpen(true)}>
        <MenuIcon />
      </button>
      <SideMenu open={menuOpen} onClose={() => setMenuOpen(false)} />
    </header>
  );
}

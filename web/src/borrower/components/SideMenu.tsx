import { useRef } from 'react';
import { NavLink, useNavigate } from 'react-router-dom';
import { useSession } from '../stores/session';
import { useCloseOnBack } from './useCloseOnBack';
import { useModalFocus } from './useModalFocus';
import { CloseIcon, HomeIcon, LoginIcon, LogoutIcon, ProfileIcon, WalletIcon } from './icons';

interface SideMenuProps {
  open: boolean;
  onClose: () => void;
}

export const SIDE_MENU_ID = 'side-menu';

/** Signed in, home is the dashboard (the marketing page, with Register and Login, looks like being signed out). */
const SIGNED_IN_LINKS = [
  { to: '/loan-app', label: 'Home', Icon: HomeIcon },
  { to: '/wallet', label: 'Wallet', Icon: WalletIcon },
  { to: '/profile', label: 'Profile', Icon: ProfileIcon },
] as const;

const SIGNED_OUT_LINKS = [
  { to: '/', label: 'Home', Icon: HomeIcon },
  { to: '/app-login', label: 'Login', Icon: LoginIcon },
] as const;

export function SideMenu({ open, onClose }: SideMenuProps) {
  const panel = useRef<HTMLDivElement>(null);
  const signedIn = useSession((state) => state.user !== null);
  const staff = useSession((state) => state.staffRole !== null);
  const logout = useSession((state) => state.logout);
  const navigate = useNavigate();
  useModalFocus(open, panel, onClose);
  useCloseOnBack(open, () => {
    onClose();
    return true;
  });
  if (!open) return null;

  function signOut() {
    onClose();
    logout();
    void navigate('/');
  }

  const links = signedIn ? SIGNED_IN_LINKS : SIGNED_OUT_LINKS;
  return (
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions -- a click on the backdrop is the mouse's shortcut; the keyboard closes with Escape
    <div className="side-menu-backdrop" onClick={(event) => event.target === event.currentTarget && onClose()}>
      <div ref={panel} id={SIDE_MENU_ID} className="side-menu" role="dialog" aria-modal="true" aria-label="Menu" tabIndex={-1}>
        <div className="side-menu__header">
          <span className="side-menu__title">Menu</span>
          <button type="button" className="icon-button" aria-label="Close menu" onClick={onClose}>
            <CloseIcon />
          </button>
        </div>
        <nav aria-label="Site">
          <ul className="side-menu__list">
            {links.map(({ to, label, Icon }) => (
              <li key={to}>
                <NavLink to={to} end className="side-menu__item" onClick={onClose}>
                  <Icon size={20} />
                  {label}
                </NavLink>
              </li>
            ))}
            {(signedIn || staff) && (
              <li>
                <button type="button" className="side-menu__item" onClick={signOut}>
                  <LogoutIcon size={20} />
                  Logout
                </button>
              </li>
            )}
          </ul>
        </nav>
        {staff && (
          <p className="side-menu__note" role="note">
            You are signed in as an admin. The admin panel is desktop only: open it on a screen at least 1024 px wide.
          </p>
        )}
      </div>
    </div>
  );
}

import { NavLink } from 'react-router-dom';
import { HomeIcon, ProfileIcon, WalletIcon } from './icons';

const TABS = [
  { to: '/loan-app', label: 'HOME', Icon: HomeIcon },
  { to: '/wallet', label: 'WALLET', Icon: WalletIcon },
  { to: '/profile', label: 'PROFILE', Icon: ProfileIcon },
] as const;

/** The signed-in member's tabs (spec §2); the shell shows it only while signed in. */
export function BottomTabBar() {
  return (
    <nav className="tab-bar" aria-label="Account">
      {TABS.map(({ to, label, Icon }) => (
        <NavLink key={to} to={to} className="tab-bar__tab">
          <Icon size={22} />
          <span>{label}</span>
        </NavLink>
      ))}
    </nav>
  );
}

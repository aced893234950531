import { Outlet } from 'react-router-dom';
import { AuthPage } from './auth/AuthPage';
import { useSession } from './stores/session';

/** Member screens draw the sign-in page in their place for a visitor (spec §2), keeping the address. */
export function SignedInOnly() {
  const signedIn = useSession((state) => state.user !== null);
  return signedIn ? <Outlet /> : <AuthPage />;
}

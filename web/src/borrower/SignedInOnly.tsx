import { Outlet } from 'react-router-dom';
import { AuthPage } from './lazyScreens';
import { ScreenChunk } from './ScreenChunk';
import { useSession } from './stores/session';

/** Member screens draw the sign-in page in their place for a visitor (spec §2), keeping the address. */
export function SignedInOnly() {
  const signedIn = useSession((state) => state.user !== null);
  return signedIn ? (
    <Outlet />
  ) : (
    <ScreenChunk>
      <AuthPage />
    </ScreenChunk>
  );
}

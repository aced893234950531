import { apiRequest } from '../../shared/api';
import { readToken, removeToken, staffRoleOf, type StaffRole } from '../../shared/authToken';

/** The staff role the stored token names, or null for a visitor or a borrower (only chooses what to draw; the API decides). */
export function storedStaffRole(): StaffRole | null {
  const token = readToken();
  return token ? staffRoleOf(token) : null;
}

/** Ends the token on the server too (a copy elsewhere stops working); never waits on it. */
export function signOutStaff(): void {
  if (readToken()) void apiRequest('/api/auth/logout', { method: 'POST' }).catch(() => undefined);
  removeToken();
}

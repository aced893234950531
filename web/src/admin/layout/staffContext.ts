import { createContext, useContext } from 'react';
import type { StaffRole } from '../../shared/authToken';

export const StaffContext = createContext<{ role: StaffRole }>({ role: 'admin' });

/** True for the main admin (role superadmin), who alone manages admins and the IP allow-list. */
export function useIsMainAdmin(): boolean {
  return useContext(StaffContext).role === 'superadmin';
}

import { MESSAGES, type UserAnswer } from '@honeylend/contracts';
import { create } from 'zustand';
import { ApiError, apiRequest, onAccountSuspended } from '../../shared/api';
import { readToken, removeToken, staffRoleOf, storeToken, type StaffRole } from '../../shared/authToken';
import { toast } from '../../shared/toast/toastStore';
import { fetchedOver, newerOf } from '../../shared/versionRule';

export interface Credentials {
  phone: string;
  password: string;
}

export interface Registration extends Credentials {
  fullName: string;
  email?: string;
  /** The privacy notice the form showed and the person accepted (RA 10173 sec. 12). */
  privacyNoticeVersion?: string;
}

/** What login and registration answer (spec §7); `user` is null when the read model lagged behind. */
interface SessionAnswer {
  success: true;
  token: string;
  user: UserAnswer | null;
}

interface SessionState {
  /** The signed-in borrower: the member document as GET /api/user/profile answers it (the profile). */
  user: UserAnswer | null;
  /**
   * Set when the stored token is a staff member's (admin console): the borrower screens stay
   * signed out, and the menu says the admin panel is desktop only (spec §2).
   */
  staffRole: StaffRole | null;
  /** True until the start-up check of the stored token has ended. */
  loading: boolean;
  start: () => Promise<void>;
  login: (credentials: Credentials) => Promise<UserAnswer | null>;
  register: (registration: Registration) => Promise<UserAnswer | null>;
  logout: () => void;
  refreshUser: () => Promise<void>;
  /** A pushed member document: applied only when newer than the one held (version rule). */
  applyMember: (doc: UserAnswer) => void;
  /** A member document a request answered (profile save): replaces the held one unless that is newer. */
  acceptMember: (doc: UserAnswer) => void;
  /** Ends a session the server no longer accepts (revoked token), with a notice. */
  endSession: (title: string, description: string) => void;
}

const PROFILE_PATH = '/api/user/profile';

function hasId(profile: UserAnswer | null): profile is UserAnswer {
  return Boolean(profile?.id);
}

export const useSession = create<SessionState>()((set, get) => ({
  user: null,
  staffRole: null,
  loading: true,

  async start() {
    const token = readToken();
    if (!token) {
      set({ user: null, staffRole: null, loading: false });
      return;
    }
    const staffRole = staffRoleOf(token);
    if (staffRole) {
      // A staff token has no borrower profile; it is kept for the admin console.
      set({ user: null, staffRole, loading: false });
      return;
    }
    try {
      const profile = await apiRequest<UserAnswer | null>(PROFILE_PATH);
      if (hasId(profile)) {
        set({ user: profile, loading: false });
        return;
      }
      removeToken();
    } catch (error) {
      // A refused token is dropped without a word; an unreachable or failing server keeps it for the next visit.
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) removeToken();
    }
    set({ user: null, loading: false });
  },

  async login(credentials) {
    const answer = await apiRequest<SessionAnswer>('/api/auth/login', { method: 'POST', body: credentials });
    storeToken(answer.token);
    set({ user: answer.user, staffRole: null });
    return answer.user;
  },

  async register(registration) {
    const answer = await apiRequest<SessionAnswer>('/api/auth/register', { method: 'POST', body: registration });
    storeToken(answer.token);
    set({ user: answer.user, staffRole: null });
    return answer.user;
  },

  logout() {
    // Ends the token on the server too, so a copy of it elsewhere stops working; signing out here never waits on it.
    if (readToken()) void apiRequest('/api/auth/logout', { method: 'POST' }).catch(() => undefined);
    removeToken();
    set({ user: null, staffRole: null });
    toast({ title: 'Logged out', description: 'You have been logged out successfully' });
  },

  applyMember(doc) {
    const held = get().user;
    if (!held || held.id !== doc.id) return;
    const next = newerOf(held, doc);
    if (next !== held) set({ user: next });
  },

  acceptMember(doc) {
    const held = get().user;
    if (!held || held.id !== doc.id) return;
    set({ user: fetchedOver(held, doc) });
  },

  endSession(title, description) {
    removeToken();
    set({ user: null, staffRole: null, loading: false });
    toast({ variant: 'destructive', title, description });
  },

  async refreshUser() {
    try {
      const profile = await apiRequest<UserAnswer | null>(PROFILE_PATH, {
        headers: { 'Cache-Control': 'no-cache, no-store', Pragma: 'no-cache' },
        cache: 'no-store',
      });
      if (hasId(profile)) {
        const held = get().user;
        set({ user: held && held.id === profile.id ? fetchedOver(held, profile) : profile });
      }
    } catch (error) {
      // Suspension has its own flow; any other failure keeps the user already shown (spec §4).
      if (!(error instanceof ApiError && error.accountSuspended)) console.error('Could not refresh the profile', error);
    }
  },
}));

onAccountSuspended(() => {
  useSession.setState({ user: null, loading: false });
  toast({ variant: 'destructive', title: 'Account Suspended', description: MESSAGES.accountSuspended });
});

/** The signed-in member, for screens that are only drawn behind the signed-in guard. */
export function useSignedInUser(): UserAnswer {
  const user = useSession((state) => state.user);
  if (!user) throw new Error('useSignedInUser is used outside the signed-in routes');
  return user;
}

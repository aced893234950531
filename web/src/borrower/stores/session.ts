import { MESSAGES, type UserAnswer } from '@honeylend/contracts';
import { create } from 'zustand';
import { ApiError, apiRequest, onAccountSuspended } from '../../shared/api';
import { readToken, removeToken, storeToken } from '../../shared/authToken';
import { toast } from '../../shared/toast/toastStore';

export interface Credentials {
  phone: string;
  password: string;
}

export interface Registration extends Credentials {
  fullName: string;
  email?: string;
}

/** What login and registration answer (spec §7); `user` is null when the read model lagged behind. */
interface SessionAnswer {
  success: true;
  token: string;
  user: UserAnswer | null;
}

interface SessionState {
  user: UserAnswer | null;
  /** True until the start-up check of the stored token has ended. */
  loading: boolean;
  start(): Promise<void>;
  login(credentials: Credentials): Promise<UserAnswer | null>;
  register(registration: Registration): Promise<UserAnswer | null>;
  logout(): void;
  refreshUser(): Promise<void>;
}

const PROFILE_PATH = '/api/user/profile';

function hasId(profile: UserAnswer | null): profile is UserAnswer {
  return Boolean(profile?.id);
}

export const useSession = create<SessionState>()((set) => ({
  user: null,
  loading: true,

  async start() {
    if (!readToken()) {
      set({ user: null, loading: false });
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
    set({ user: answer.user });
    return answer.user;
  },

  async register(registration) {
    const answer = await apiRequest<SessionAnswer>('/api/auth/register', { method: 'POST', body: registration });
    storeToken(answer.token);
    set({ user: answer.user });
    return answer.user;
  },

  logout() {
    removeToken();
    set({ user: null });
    toast({ title: 'Logged out', description: 'You have been logged out successfully' });
  },

  async refreshUser() {
    try {
      const profile = await apiRequest<UserAnswer | null>(PROFILE_PATH, {
        headers: { 'Cache-Control': 'no-cache, no-store', Pragma: 'no-cache' },
        cache: 'no-store',
      });
      if (hasId(profile)) set({ user: profile });
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

import type { UserAnswer } from '@honeylend/contracts';
import { apiRequest } from '../../shared/api';
import { storeToken } from '../../shared/authToken';
import { useSession } from '../stores/session';

/** The borrower's own account security (issue 14): the requests the screens make, and what follows them. */

export interface CodeSent {
  sentTo: string;
  expiresAt: string;
}

/**
 * A password change ends every session of the account, this one's token included: the socket may
 * hear "revoked" before the answer with the new token arrives. While the change (or a sign-out
 * everywhere) runs, the live updates wait for it (`tokenChange`) before checking whether the
 * session still stands.
 */
let tokenChange: Promise<unknown> | null = null;
export function pendingTokenChange(): Promise<unknown> | null {
  return tokenChange;
}

export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  const change = apiRequest<{ token: string }>('/api/user/password', { method: 'POST', body: { currentPassword, newPassword } }).then((answer) => {
    storeToken(answer.token);
    return answer;
  });
  tokenChange = change.catch(() => undefined);
  try {
    await change;
  } finally {
    tokenChange = null;
  }
}

/**
 * A request that ends this session by design (closing the account, RA 10173): the live updates
 * wait for it, as for a password change, so its own "revoked" does not sign out with other words.
 */
export async function endingSession<T>(request: Promise<T>): Promise<T> {
  tokenChange = request.catch(() => undefined);
  try {
    return await request;
  } finally {
    tokenChange = null;
  }
}

export async function requestPasswordReset(phone: string): Promise<string> {
  const answer = await apiRequest<{ message: string }>('/api/auth/password-reset/request', { method: 'POST', body: { phone } });
  return answer.message;
}

export async function confirmPasswordReset(phone: string, code: string, newPassword: string): Promise<void> {
  await apiRequest('/api/auth/password-reset/confirm', { method: 'POST', body: { phone, code, newPassword } });
}

/** Every session of the account ends, this one too: the borrower signs in again (the socket's "revoked" waits for this). */
export async function signOutEverywhere(): Promise<void> {
  const signOut = apiRequest('/api/auth/logout-everywhere', { method: 'POST' });
  tokenChange = signOut.catch(() => undefined);
  try {
    await signOut;
    useSession.getState().endSession('Signed out everywhere', 'Every session of your account has ended. Sign in again to continue.');
  } finally {
    tokenChange = null;
  }
}

export function requestPhoneCode(): Promise<CodeSent> {
  return apiRequest<CodeSent>('/api/user/phone-verification', { method: 'POST' });
}

export async function confirmPhoneCode(code: string): Promise<UserAnswer> {
  const user = await apiRequest<UserAnswer>('/api/user/phone-verification/confirm', { method: 'POST', body: { code } });
  useSession.getState().acceptMember(user);
  return user;
}

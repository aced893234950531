import type { LoanAnswer, NotificationAnswer, UserAnswer, WithdrawalAnswer } from '@honeylend/contracts';
import { pendingTokenChange } from '../account/accountSecurity';
import { ApiError, apiRequest } from '../../shared/api';
import { readToken } from '../../shared/authToken';
import { formatPesoAmount } from '../../shared/money';
import { realtime, type RealtimeClient } from '../../shared/realtime';
import { toast } from '../../shared/toast/toastStore';
import { useLoans } from './loans';
import { useNotifications } from './notifications';
import { useSession } from './session';
import { useWithdrawalFlow, useWithdrawals } from './wallet';

/** Approval arrives live: the borrower is told at once, with the next step (issue 22, item 14). */
export function announceApproval(held: LoanAnswer | undefined, pushed: LoanAnswer): void {
  if (held?.status !== 'pending' || (pushed.status !== 'approved' && pushed.status !== 'active')) return;
  // The money moves only once the borrower accepts the Disclosure Statement: before that, say what to do, not that it arrived.
  const description =
    pushed.status === 'active'
      ? `${pushed.loanNumber}: ${formatPesoAmount(pushed.amount)} is in your wallet. Open Wallet to withdraw it.`
      : `${pushed.loanNumber}: read and accept its Disclosure Statement to receive ${formatPesoAmount(pushed.amount)} in your wallet.`;
  toast({ title: 'Your loan was approved', description, durationMs: 10_000 });
}

/** Every member store refetched over REST (start of a session, or the feed lost track: 'resync'). */
export async function refetchMemberStores(): Promise<void> {
  await Promise.all([useSession.getState().refreshUser(), useLoans.getState().fetch(), useWithdrawals.getState().fetch(), useNotifications.getState().fetch()]);
}

export function clearMemberStores(): void {
  useLoans.getState().clear();
  useWithdrawals.getState().clear();
  useNotifications.getState().clear();
  useWithdrawalFlow.getState().cancel();
}

/**
 * The server ended this socket's session (suspension, deletion, password reset). The profile
 * call says which: a suspended member gets the suspended flow (notice, /app-login) from the API
 * client; any other refusal signs out; a session that still answers reconnects.
 */
async function endRevokedSession(client: RealtimeClient): Promise<void> {
  // A password change in flight revoked this token and is about to hand over the next one.
  await pendingTokenChange();
  if (!readToken() || !useSession.getState().user) return;
  try {
    const profile = await apiRequest<UserAnswer>('/api/user/profile', { cache: 'no-store', headers: { 'Cache-Control': 'no-cache, no-store' } });
    useSession.getState().acceptMember(profile);
    client.connect();
  } catch (error) {
    if (error instanceof ApiError && error.accountSuspended) return;
    if (error instanceof ApiError && (error.status === 401 || error.status === 403 || error.status === 404)) {
      useSession.getState().endSession('Signed out', 'Your session has ended. Please sign in again.');
    }
  }
}

/**
 * Keeps the member stores current while a borrower is signed in: one socket per tab (connected
 * before the REST fetches, so nothing that happens in between is missed), each pushed document
 * applied under the version rule, 'resync' refetching everything, 'revoked' ending the session.
 * Signing out (or suspension) closes the socket and clears the stores. Returns the stop function.
 */
export function startLiveUpdates(client: RealtimeClient = realtime()): () => void {
  const unsubscribers = [
    client.subscribe<UserAnswer>('member.updated', ({ doc }) => {
      useSession.getState().applyMember(doc);
      // The revocation normally ends the session; this covers a socket that heard the change first.
      if (doc.status === 'suspended') void useSession.getState().refreshUser();
    }),
    client.subscribe<LoanAnswer>('loan.updated', ({ doc }) => {
      const held = useLoans.getState().items.find((loan) => loan.id === doc.id);
      useLoans.getState().apply(doc);
      announceApproval(held, doc);
    }),
    client.subscribe<WithdrawalAnswer>('withdrawal.updated', ({ doc }) => useWithdrawals.getState().apply(doc)),
    client.subscribe<NotificationAnswer>('notification.created', ({ doc }) => useNotifications.getState().apply(doc)),
    // Read here or on another of the member's devices.
    client.subscribe<NotificationAnswer>('notification.updated', ({ doc }) => useNotifications.getState().apply(doc)),
    client.subscribe('resync', () => void refetchMemberStores()),
    client.subscribe('revoked', () => void endRevokedSession(client)),
  ];

  let memberId: string | null = null;
  const follow = (user: UserAnswer | null) => {
    const next = user?.id ?? null;
    if (next === memberId) return;
    memberId = next;
    // Another account (or none) must not resume the previous one's feed position.
    client.reset();
    clearMemberStores();
    if (next) {
      client.connect();
      void refetchMemberStores();
    }
  };
  follow(useSession.getState().user);
  const unsubscribeSession = useSession.subscribe((state) => follow(state.user));

  return () => {
    unsubscribeSession();
    for (const unsubscribe of unsubscribers) unsubscribe();
    client.reset();
  };
}

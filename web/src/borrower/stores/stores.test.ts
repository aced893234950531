import { describe, expect, it, vi } from 'vitest';
import type { io } from 'socket.io-client';
import { RealtimeClient, type RealtimeEvent } from '../../shared/realtime';
import { useToasts } from '../../shared/toast/toastStore';
import { jsonResponse, loanAnswer, memberAnswer, notificationAnswer, routeFetch, withdrawalAnswer } from '../../testing/http';
import { startLiveUpdates } from './liveUpdates';
import { useLoans } from './loans';
import { useNotifications } from './notifications';
import { useSession } from './session';
import { useWithdrawals } from './wallet';

/** Lets a test see the order of the socket's life: connects and disconnects. */
function offlineClient() {
  const lifecycle: string[] = [];
  const fakeSocket = {
    on: () => fakeSocket,
    removeAllListeners: () => fakeSocket,
    disconnect: () => lifecycle.push('disconnect'),
    connected: false,
  };
  const connect = (() => {
    lifecycle.push('connect');
    return fakeSocket;
  }) as unknown as typeof io;
  const client = new RealtimeClient({ connect, token: () => 'jwt-abc' });
  const push = (event: RealtimeEvent, doc: { version: number }, streamId = `${1000 + doc.version}-0`) => client.receive(event, { version: doc.version, streamId, doc });
  return { client, lifecycle, push };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the stores apply only newer versions', () => {
  it('keeps the held member on an older or equal push and takes a newer one', () => {
    useSession.setState({ user: memberAnswer({ balance: 80000, version: 20 }), loading: false });

    useSession.getState().applyMember(memberAnswer({ balance: 0, version: 19 }));
    useSession.getState().applyMember(memberAnswer({ balance: 1, version: 20 }));
    expect(useSession.getState().user).toMatchObject({ balance: 80000, version: 20 });

    useSession.getState().applyMember(memberAnswer({ balance: 75000, version: 21 }));
    expect(useSession.getState().user).toMatchObject({ balance: 75000, version: 21 });
  });

  it("ignores a push for another member's document", () => {
    useSession.setState({ user: memberAnswer({ version: 20 }), loading: false });
    useSession.getState().applyMember(memberAnswer({ id: 'someone-else', balance: 999, version: 99 }));
    expect(useSession.getState().user?.balance).toBe(0);
  });

  it('lets a profile refresh replace the member unless a push already brought a newer one', async () => {
    localStorage.setItem('token', 'jwt-abc');
    useSession.setState({ user: memberAnswer({ balance: 95000, version: 30 }), loading: false });
    routeFetch({ 'GET /api/user/profile': () => jsonResponse(memberAnswer({ balance: 100000, version: 25 })) });
    await useSession.getState().refreshUser();
    expect(useSession.getState().user).toMatchObject({ balance: 95000, version: 30 });

    routeFetch({ 'GET /api/user/profile': () => jsonResponse(memberAnswer({ balance: 90000, version: 31 })) });
    await useSession.getState().refreshUser();
    expect(useSession.getState().user).toMatchObject({ balance: 90000, version: 31 });
  });

  it('updates a loan in place only when the pushed version is newer, and adds an unknown loan', () => {
    const pending = loanAnswer({ status: 'pending', version: 40 });
    useLoans.getState().apply(pending);
    useLoans.getState().apply(loanAnswer({ status: 'approved', version: 41 }));
    useLoans.getState().apply(loanAnswer({ status: 'pending', version: 40 }));
    useLoans.getState().apply(loanAnswer({ status: 'denied', version: 39 }));
    expect(useLoans.getState().items.map((loan) => [loan.status, loan.version])).toEqual([['approved', 41]]);

    useLoans.getState().apply(loanAnswer({ id: 'a-newer-loan', createdAt: '2026-03-01T00:00:00.000Z', version: 45 }));
    expect(useLoans.getState().items.map((loan) => loan.id)).toEqual(['a-newer-loan', pending.id]);
  });

  it('does not let a fetch answered from before a push roll the push back', async () => {
    const answer = deferred<Response>();
    routeFetch({ 'GET /api/loans/user': () => answer.promise });
    const fetching = useLoans.getState().fetch();
    expect(useLoans.getState().status).toBe('loading');

    // The approval is pushed while the list request is on its way; the server read the list before it.
    useLoans.getState().apply(loanAnswer({ status: 'approved', version: 41 }));
    answer.resolve(jsonResponse([loanAnswer({ status: 'pending', version: 40 })]));
    await fetching;

    expect(useLoans.getState()).toMatchObject({ status: 'ready', items: [{ status: 'approved', version: 41 }] });
  });

  it('drops what a fresh fetch no longer lists (a deleted application)', async () => {
    useLoans.getState().apply(loanAnswer({ id: 'deleted-loan', version: 12 }));
    routeFetch({ 'GET /api/loans/user': () => jsonResponse([]) });
    await useLoans.getState().fetch();
    expect(useLoans.getState().items).toEqual([]);
  });

  it('keeps notifications and withdrawals newest first under the same rule', () => {
    useNotifications.getState().apply(notificationAnswer({ id: 'n1', createdAt: '2026-01-16T02:00:00.000Z', version: 50 }));
    useNotifications.getState().apply(notificationAnswer({ id: 'n2', createdAt: '2026-01-18T02:00:00.000Z', version: 55 }));
    expect(useNotifications.getState().items.map((item) => item.id)).toEqual(['n2', 'n1']);

    useWithdrawals.getState().apply(withdrawalAnswer({ status: 'completed', version: 62 }));
    useWithdrawals.getState().apply(withdrawalAnswer({ status: 'pending', version: 60 }));
    expect(useWithdrawals.getState().items.map((item) => item.status)).toEqual(['completed']);
  });
});

describe('a staff token in the borrower app', () => {
  const tokenFor = (role: string) => `e30.${btoa(JSON.stringify({ role, tv: 0, sub: 'x' })).replace(/=+$/, '')}.c2ln`;

  it('keeps an admin token without asking for a borrower profile, and marks the session as staff', async () => {
    localStorage.setItem('token', tokenFor('superadmin'));
    const fetchMock = routeFetch({});
    await useSession.getState().start();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(useSession.getState()).toMatchObject({ user: null, staffRole: 'superadmin', loading: false });
    expect(localStorage.getItem('token')).toBe(tokenFor('superadmin'));
  });

  it('treats a borrower token as a borrower', async () => {
    localStorage.setItem('token', tokenFor('borrower'));
    routeFetch({ 'GET /api/user/profile': () => jsonResponse(memberAnswer()) });
    await useSession.getState().start();
    expect(useSession.getState()).toMatchObject({ staffRole: null, user: { phone: '+639171234567' } });
  });
});

describe('live updates', () => {
  it('connects before fetching every store once a borrower is signed in, and applies pushes with the version rule', async () => {
    localStorage.setItem('token', 'jwt-abc');
    const { client, lifecycle, push } = offlineClient();
    const answer = (path: string, body: unknown) => () => {
      lifecycle.push(`fetch ${path}`);
      return jsonResponse(body);
    };
    routeFetch({
      'GET /api/user/profile': answer('profile', memberAnswer({ version: 20 })),
      'GET /api/loans/user': answer('loans', [loanAnswer({ status: 'pending', version: 40 })]),
      'GET /api/withdrawals': answer('withdrawals', []),
      'GET /api/notifications': answer('notifications', []),
    });
    const stop = startLiveUpdates(client);
    try {
      expect(lifecycle).toEqual([]);
      useSession.setState({ user: memberAnswer({ version: 20 }), loading: false });
      await flush();
      expect(lifecycle[0]).toBe('connect');
      expect(lifecycle.slice(1).sort()).toEqual(['fetch loans', 'fetch notifications', 'fetch profile', 'fetch withdrawals']);

      push('loan.updated', loanAnswer({ status: 'approved', version: 41 }));
      push('member.updated', memberAnswer({ balance: 100000, version: 42 }));
      push('loan.updated', loanAnswer({ status: 'pending', version: 40 }));
      push('member.updated', memberAnswer({ balance: 0, version: 21 }));
      push('notification.created', notificationAnswer({ version: 43 }));

      expect(useLoans.getState().items.map((loan) => loan.status)).toEqual(['approved']);
      expect(useSession.getState().user).toMatchObject({ balance: 100000, version: 42 });
      expect(useNotifications.getState().items).toHaveLength(1);
      expect(client.lastStreamId).toBe('1043-0');
    } finally {
      stop();
    }
  });

  it("refetches everything on 'resync'", async () => {
    localStorage.setItem('token', 'jwt-abc');
    useSession.setState({ user: memberAnswer({ version: 20 }), loading: false });
    let loanFetches = 0;
    routeFetch({
      'GET /api/user/profile': () => jsonResponse(memberAnswer({ version: 20 })),
      'GET /api/loans/user': () => {
        loanFetches++;
        return jsonResponse([loanAnswer({ status: loanFetches > 1 ? 'approved' : 'pending', version: 40 + loanFetches })]);
      },
      'GET /api/withdrawals': () => jsonResponse([]),
      'GET /api/notifications': () => jsonResponse([]),
    });
    const { client } = offlineClient();
    const stop = startLiveUpdates(client);
    try {
      await flush();
      expect(loanFetches).toBe(1);
      client['dispatch']('resync', { version: 0, streamId: '', doc: null });
      await flush();
      expect(loanFetches).toBe(2);
      expect(useLoans.getState().items[0]?.status).toBe('approved');
    } finally {
      stop();
    }
  });

  it("signs out on 'revoked' when the server no longer accepts the token, and forgets the member's data", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    localStorage.setItem('token', 'jwt-abc');
    useSession.setState({ user: memberAnswer({ version: 20 }), loading: false });
    routeFetch({
      'GET /api/user/profile': () => jsonResponse({ message: 'Please sign in to continue', code: 'UNAUTHORIZED' }, { status: 401 }),
      'GET /api/loans/user': () => jsonResponse([loanAnswer()]),
      'GET /api/withdrawals': () => jsonResponse([]),
      'GET /api/notifications': () => jsonResponse([]),
    });
    const { client, lifecycle } = offlineClient();
    const stop = startLiveUpdates(client);
    try {
      await flush();
      client['dispatch']('revoked', { version: 0, streamId: '', doc: { reason: 'password-reset' } });
      await flush();
      await flush();
      expect(useSession.getState().user).toBeNull();
      expect(localStorage.getItem('token')).toBeNull();
      expect(useLoans.getState().items).toEqual([]);
      expect(lifecycle.at(-1)).toBe('disconnect');
      expect(useToasts.getState().toasts[0]).toMatchObject({ title: 'Signed out', variant: 'destructive' });
    } finally {
      stop();
    }
  });

  it("takes the suspended flow on 'revoked' for a suspended member: the spec's message", async () => {
    localStorage.setItem('token', 'jwt-abc');
    useSession.setState({ user: memberAnswer({ version: 20 }), loading: false });
    routeFetch({
      'GET /api/user/profile': () => jsonResponse({ message: 'Your account has been suspended. Please contact support.', code: 'ACCOUNT_SUSPENDED', accountStatus: 'suspended' }, { status: 403 }),
    });
    const { client } = offlineClient();
    const stop = startLiveUpdates(client);
    try {
      client['dispatch']('revoked', { version: 0, streamId: '', doc: { reason: 'suspended' } });
      await flush();
      await flush();
      expect(useSession.getState().user).toBeNull();
      expect(localStorage.getItem('token')).toBeNull();
      expect(useToasts.getState().toasts[0]).toMatchObject({
        title: 'Account Suspended',
        description: 'Your account has been suspended. Please contact support.',
        variant: 'destructive',
      });
    } finally {
      stop();
    }
  });
});

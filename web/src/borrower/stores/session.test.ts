import { describe, expect, it, vi } from 'vitest';
import { useToasts } from '../../shared/toast/toastStore';
import { jsonResponse, memberAnswer, mockFetch, requestOf } from '../../testing/http';
import { useSession } from './session';

const suspendedAnswer = () => jsonResponse({ message: 'Your account has been suspended. Please contact support.', code: 'ACCOUNT_SUSPENDED', accountStatus: 'suspended' }, { status: 403, statusText: 'Forbidden' });

function shownToasts() {
  return useToasts.getState().toasts.map(({ title, description, variant }) => ({ title, description, variant }));
}

describe('session start (spec §4)', () => {
  it('ends loading at once, asking nothing, when no token is stored', async () => {
    const fetchMock = mockFetch();

    await useSession.getState().start();

    expect(fetchMock).not.toHaveBeenCalled();
    expect(useSession.getState()).toMatchObject({ user: null, loading: false });
  });

  it('fetches the profile with the stored token and keeps the member it answers', async () => {
    localStorage.setItem('token', 'jwt-abc');
    const member = memberAnswer();
    const fetchMock = mockFetch(jsonResponse(member));

    const started = useSession.getState().start();
    expect(useSession.getState().loading).toBe(true);
    await started;

    const request = requestOf(fetchMock);
    expect(request.url).toBe('/api/user/profile');
    expect(request.headers.get('Authorization')).toBe('Bearer jwt-abc');
    expect(useSession.getState()).toMatchObject({ user: member, loading: false });
    expect(localStorage.getItem('token')).toBe('jwt-abc');
  });

  it('removes the token when the profile has no id', async () => {
    localStorage.setItem('token', 'jwt-abc');
    mockFetch(jsonResponse({ phone: '+639171234567' }));

    await useSession.getState().start();

    expect(localStorage.getItem('token')).toBeNull();
    expect(useSession.getState()).toMatchObject({ user: null, loading: false });
  });

  it('removes a refused token without a notice', async () => {
    localStorage.setItem('token', 'expired');
    mockFetch(jsonResponse({ message: 'Unauthorized', code: 'UNAUTHENTICATED' }, { status: 401 }));

    await useSession.getState().start();

    expect(localStorage.getItem('token')).toBeNull();
    expect(useSession.getState()).toMatchObject({ user: null, loading: false });
    expect(shownToasts()).toEqual([]);
  });

  it('keeps the token for the next visit when the server cannot be reached', async () => {
    localStorage.setItem('token', 'jwt-abc');
    mockFetch(new TypeError('Failed to fetch'));

    await useSession.getState().start();

    expect(localStorage.getItem('token')).toBe('jwt-abc');
    expect(useSession.getState()).toMatchObject({ user: null, loading: false });
  });

  it('forces a suspended member out: token removed, user cleared, destructive notice', async () => {
    localStorage.setItem('token', 'jwt-abc');
    mockFetch(suspendedAnswer());

    await useSession.getState().start();

    expect(localStorage.getItem('token')).toBeNull();
    expect(useSession.getState()).toMatchObject({ user: null, loading: false });
    expect(shownToasts()).toEqual([{ title: 'Account Suspended', description: 'Your account has been suspended. Please contact support.', variant: 'destructive' }]);
  });
});

describe('signing in, registering and out', () => {
  it('stores the token and the member on login', async () => {
    const member = memberAnswer();
    const fetchMock = mockFetch(jsonResponse({ success: true, token: 'jwt-new', user: member }));

    await useSession.getState().login({ phone: '+639171234567', password: 'secret1' });

    expect(requestOf(fetchMock)).toMatchObject({ url: '/api/auth/login', method: 'POST', body: { phone: '+639171234567', password: 'secret1' } });
    expect(localStorage.getItem('token')).toBe('jwt-new');
    expect(useSession.getState().user).toEqual(member);
  });

  it('signs the member in at once on registration', async () => {
    const member = memberAnswer({ fullName: 'Juan dela Cruz' });
    const fetchMock = mockFetch(jsonResponse({ success: true, token: 'jwt-reg', user: member }, { status: 201 }));

    await useSession.getState().register({ phone: '+639171234567', password: 'secret1', fullName: 'Juan dela Cruz' });

    expect(requestOf(fetchMock)).toMatchObject({ url: '/api/auth/register', method: 'POST' });
    expect(localStorage.getItem('token')).toBe('jwt-reg');
    expect(useSession.getState().user).toEqual(member);
  });

  it('stores nothing when login fails', async () => {
    mockFetch(jsonResponse({ message: 'Invalid phone number or password', code: 'INVALID_CREDENTIALS' }, { status: 401 }));

    await expect(useSession.getState().login({ phone: '+639171234567', password: 'wrong-1' })).rejects.toThrow('Invalid phone number or password');
    expect(localStorage.getItem('token')).toBeNull();
    expect(useSession.getState().user).toBeNull();
  });

  it('logs out: the server ends the token, the token is removed, the user cleared, and a notice', () => {
    localStorage.setItem('token', 'jwt-abc');
    useSession.setState({ user: memberAnswer(), loading: false });
    const fetchMock = mockFetch(jsonResponse({ success: true }));

    useSession.getState().logout();

    const request = requestOf(fetchMock);
    expect(request.url).toBe('/api/auth/logout');
    expect(request.method).toBe('POST');
    expect(request.headers.get('Authorization')).toBe('Bearer jwt-abc');
    expect(localStorage.getItem('token')).toBeNull();
    expect(useSession.getState().user).toBeNull();
    expect(shownToasts()).toEqual([{ title: 'Logged out', description: 'You have been logged out successfully', variant: 'default' }]);
  });
});

describe('refreshing the member', () => {
  it('re-fetches the profile past every cache', async () => {
    localStorage.setItem('token', 'jwt-abc');
    useSession.setState({ user: memberAnswer({ balance: 0 }), loading: false });
    const fetchMock = mockFetch(jsonResponse(memberAnswer({ balance: 80000 })));

    await useSession.getState().refreshUser();

    const request = requestOf(fetchMock);
    expect(request.headers.get('Cache-Control')).toBe('no-cache, no-store');
    expect(request.init.cache).toBe('no-store');
    expect(useSession.getState().user?.balance).toBe(80000);
  });

  it('keeps the member shown and logs when the refresh fails', async () => {
    localStorage.setItem('token', 'jwt-abc');
    const member = memberAnswer();
    useSession.setState({ user: member, loading: false });
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch(jsonResponse({ message: 'Internal error' }, { status: 500 }));

    await useSession.getState().refreshUser();

    expect(useSession.getState().user).toEqual(member);
    expect(localStorage.getItem('token')).toBe('jwt-abc');
    expect(consoleError).toHaveBeenCalled();
  });

  it('clears a member found suspended on refresh', async () => {
    localStorage.setItem('token', 'jwt-abc');
    useSession.setState({ user: memberAnswer(), loading: false });
    mockFetch(suspendedAnswer());

    await useSession.getState().refreshUser();

    expect(localStorage.getItem('token')).toBeNull();
    expect(useSession.getState().user).toBeNull();
    expect(shownToasts()[0]?.title).toBe('Account Suspended');
  });
});

import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, requestOf, textResponse } from '../testing/http';
import { ApiError, apiRequest, onAccountSuspended, serverFieldErrors } from './api';

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  const outcome = await promise.then(
    () => null,
    (error: unknown) => error,
  );
  if (!(outcome instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(outcome)}`);
  return outcome;
}

describe('API client requests (spec §7)', () => {
  it('sends the stored token as a bearer header, cookies, and a JSON body', async () => {
    localStorage.setItem('token', 'jwt-abc');
    const fetchMock = mockFetch(jsonResponse({ success: true }, { status: 201 }));

    await expect(apiRequest('/api/auth/register', { method: 'POST', body: { phone: '09171234567' } })).resolves.toEqual({ success: true });

    const request = requestOf(fetchMock);
    expect(request.url).toBe('/api/auth/register');
    expect(request.method).toBe('POST');
    expect(request.headers.get('Authorization')).toBe('Bearer jwt-abc');
    expect(request.headers.get('Content-Type')).toBe('application/json');
    expect(request.body).toEqual({ phone: '09171234567' });
    expect(request.init.credentials).toBe('include');
  });

  it('sends no authorization header and no content type for a plain read without a token', async () => {
    const fetchMock = mockFetch(jsonResponse({ id: 'x' }));

    await apiRequest('/api/user/profile');

    const request = requestOf(fetchMock);
    expect(request.method).toBe('GET');
    expect(request.headers.has('Authorization')).toBe(false);
    expect(request.headers.has('Content-Type')).toBe(false);
  });

  it('answers null for an empty successful body', async () => {
    mockFetch(new Response(null, { status: 204 }));
    await expect(apiRequest('/api/anything')).resolves.toBeNull();
  });
});

describe('API client errors (spec §8)', () => {
  it("uses the body's message and carries the status and the body", async () => {
    const body = { message: 'Invalid phone number or password', code: 'INVALID_CREDENTIALS' };
    mockFetch(jsonResponse(body, { status: 401, statusText: 'Unauthorized' }));

    const error = await failureOf(apiRequest('/api/auth/login', { method: 'POST', body: {} }));

    expect(error.message).toBe('Invalid phone number or password');
    expect(error.status).toBe(401);
    expect(error.data).toEqual(body);
  });

  it('falls back to the status text when the JSON body has no message', async () => {
    mockFetch(jsonResponse({ code: 'TOO_MANY' }, { status: 429, statusText: 'Too Many Requests' }));
    expect((await failureOf(apiRequest('/api/auth/login'))).message).toBe('Too Many Requests');
  });

  it("falls back to 'Request failed' when there is neither a message nor a status text", async () => {
    mockFetch(jsonResponse({}, { status: 500 }));
    const error = await failureOf(apiRequest('/api/user/profile'));
    expect(error.message).toBe('Request failed');
    expect(error.status).toBe(500);
  });

  it('reads a body that is not JSON as "<status>: <text>"', async () => {
    mockFetch(textResponse('upstream connect error', { status: 502, statusText: 'Bad Gateway' }));
    const error = await failureOf(apiRequest('/api/user/profile'));
    expect(error.message).toBe('502: upstream connect error');
    expect(error.status).toBe(502);
    expect(error.data).toBe('upstream connect error');
  });

  it('uses the status text after the status when a failed body is empty', async () => {
    mockFetch(new Response('', { status: 503, statusText: 'Service Unavailable' }));
    expect((await failureOf(apiRequest('/api/user/profile'))).message).toBe('503: Service Unavailable');
  });

  it("answers 'Request failed' with status 0 when the server cannot be reached", async () => {
    mockFetch(new TypeError('Failed to fetch'));
    const error = await failureOf(apiRequest('/api/user/profile'));
    expect(error.message).toBe('Request failed');
    expect(error.status).toBe(0);
  });

  it('reads the per-field messages of a validation answer', async () => {
    mockFetch(jsonResponse({ message: 'Please check the form', code: 'VALIDATION_FAILED', details: { fields: { phone: 'Phone number is required' } } }, { status: 400 }));
    const error = await failureOf(apiRequest('/api/auth/register', { method: 'POST', body: {} }));
    expect(serverFieldErrors(error)).toEqual({ phone: 'Phone number is required' });
    expect(serverFieldErrors(new Error('not from the API'))).toEqual({});
  });
});

describe('suspended account (spec §4)', () => {
  it('removes the token and runs the suspended flow on a 403 naming a suspended account', async () => {
    localStorage.setItem('token', 'jwt-abc');
    const listener = vi.fn();
    const unsubscribe = onAccountSuspended(listener);
    mockFetch(jsonResponse({ message: 'Your account has been suspended. Please contact support.', accountStatus: 'suspended' }, { status: 403 }));

    const error = await failureOf(apiRequest('/api/user/profile'));
    unsubscribe();

    expect(error.accountSuspended).toBe(true);
    expect(localStorage.getItem('token')).toBeNull();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('leaves the session alone on any other 403', async () => {
    localStorage.setItem('token', 'jwt-abc');
    const listener = vi.fn();
    const unsubscribe = onAccountSuspended(listener);
    mockFetch(jsonResponse({ message: 'Forbidden', code: 'FORBIDDEN' }, { status: 403 }));

    const error = await failureOf(apiRequest('/api/admin/users'));
    unsubscribe();

    expect(error.accountSuspended).toBe(false);
    expect(localStorage.getItem('token')).toBe('jwt-abc');
    expect(listener).not.toHaveBeenCalled();
  });
});

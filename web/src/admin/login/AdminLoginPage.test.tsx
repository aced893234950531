import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useToasts } from '../../shared/toast/toastStore';
import { jsonResponse, mockFetch, requestOf } from '../../testing/http';
import { renderApp } from '../../testing/renderApp';

const LOADED = { timeout: 15_000 };

async function signIn(username: string, password: string) {
  fireEvent.change(await screen.findByLabelText('Username', {}, LOADED), { target: { value: username } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('/admin-login', () => {
  it("shows the server's message in a red alert and an Error toast when sign-in fails", async () => {
    mockFetch(jsonResponse({ message: 'Invalid username or password', code: 'INVALID_CREDENTIALS' }, { status: 401 }));
    renderApp('/admin-login');
    await signIn('admin', 'wrong-password');

    await waitFor(() => expect(document.querySelector('.ant-alert-error')?.textContent).toContain('Invalid username or password'));
    expect(useToasts.getState().toasts[0]).toMatchObject({ title: 'Error', description: 'Invalid username or password', variant: 'destructive' });
    expect(localStorage.getItem('token')).toBeNull();
  });

  it("stores the token, says 'Success' and goes to /management", async () => {
    const fetchMock = mockFetch(jsonResponse({ success: true, token: 'header.eyJyb2xlIjoic3VwZXJhZG1pbiJ9.signature', user: null }));
    const view = renderApp('/admin-login');
    await signIn('admin', 'honeylend-dev-admin');

    await waitFor(() => expect(view.location()).toBe('/management'));
    expect(requestOf(fetchMock)).toMatchObject({ url: '/api/auth/admin-login', method: 'POST', body: { username: 'admin', password: 'honeylend-dev-admin' } });
    expect(localStorage.getItem('token')).toBe('header.eyJyb2xlIjoic3VwZXJhZG1pbiJ9.signature');
    expect(useToasts.getState().toasts[0]).toMatchObject({ title: 'Success', description: 'Admin login successful' });
  });
});

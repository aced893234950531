import { act, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../App';
import { loanAnswer, memberAnswer } from '../../testing/http';
import { useLoans } from '../stores/loans';
import { useSession } from '../stores/session';
import { drawSessionAsFrame, FrameCover } from './frame';
import { renderDashboardFrame } from './prerender';

// Issue 20: the app hydrates the dashboard's prerendered frame (src/boot.tsx) instead of drawing a
// page of its own over it; that holds only while its first render is the build's, element for element.

let reactRoot: Root | undefined;

afterEach(() => {
  act(() => reactRoot?.unmount());
  reactRoot = undefined;
  document.body.innerHTML = '';
});

describe("hydrating the dashboard's prerendered frame", () => {
  it("adopts the frame without a mismatch, then shows the member's own dashboard, no longer inert", async () => {
    document.body.innerHTML = `<div id="root" data-prerendered="dashboard">${renderDashboardFrame()}</div>`;
    const root = document.getElementById('root')!;
    const heading = root.querySelector('#page-title');
    // The browser's store starts as the app's own (the build's render changed this module's copy).
    Object.assign(useSession.getInitialState(), { user: null, staffRole: null, loading: true });
    // By the time the app hydrates, the session is checked: a member with an open loan.
    localStorage.setItem('token', 'jwt-abc');
    useSession.setState({ user: memberAnswer({ verified: true, phoneVerified: true }), staffRole: null, loading: false });
    useLoans.setState({ items: [loanAnswer({ status: 'approved' })], status: 'ready' });
    const recoverable: unknown[] = [];
    const consoleError = vi.spyOn(console, 'error');

    drawSessionAsFrame();
    await act(async () => {
      reactRoot = hydrateRoot(
        root,
        <StrictMode>
          <MemoryRouter initialEntries={['/loan-app']}>
            <FrameCover>
              <App />
            </FrameCover>
          </MemoryRouter>
        </StrictMode>,
        { onRecoverableError: (error) => recoverable.push(error) },
      );
    });

    expect(recoverable).toEqual([]);
    expect(consoleError).not.toHaveBeenCalled();
    // The frame's elements are the app's, now showing the member.
    expect(root.querySelector('#page-title')).toBe(heading);
    expect(root.querySelector('.member-greeting')?.textContent).toBe('Hello, Maria');
    expect(root.querySelector('[data-testid="loan-number"]')?.textContent).toBe('LN-2026-000123');
    // The inbox the frame left out (its count is the member's) comes with its chunk.
    await waitFor(() => expect(root.querySelector('.bell')).not.toBeNull());
    const cover = root.firstElementChild!;
    expect(cover.hasAttribute('inert')).toBe(false);
    expect(cover.hasAttribute('aria-hidden')).toBe(false);
  });
});

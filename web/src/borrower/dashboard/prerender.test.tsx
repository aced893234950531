import { getByRole, queryByRole, queryByTestId } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderDashboardFrame } from './prerender';

// The dashboard's frame the build puts in dashboard.html (issue 20): what the app draws at
// /loan-app while a member's data loads, and nothing of any member.

const body = () => document.body;

beforeAll(() => {
  document.body.innerHTML = `<div id="root">${renderDashboardFrame()}</div>`;
});

afterAll(() => {
  document.body.innerHTML = '';
});

describe("the dashboard's prerendered frame", () => {
  it('is inert and hidden from assistive technology as a whole until the app hydrates it', () => {
    const cover = body().querySelector('#root > div');
    expect(cover?.hasAttribute('inert')).toBe(true);
    expect(cover?.getAttribute('aria-hidden')).toBe('true');
    expect(queryByRole(body(), 'heading', { level: 1 })).toBeNull();
  });

  it('is the signed-in shell with the dashboard loading: heading, loan card, carousel, converter, tab bar; no spinner', () => {
    expect(getByRole(body(), 'heading', { level: 1, name: 'Dashboard', hidden: true })).toBeTruthy();
    const loanCard = getByRole(body(), 'region', { name: 'Active loan', hidden: true });
    expect(loanCard.getAttribute('aria-busy')).toBe('true');
    expect(loanCard.textContent).toContain('Loading...');
    expect(body().textContent).toContain('Fast cash loans');
    expect(getByRole(body(), 'region', { name: 'Currency converter', hidden: true })).toBeTruthy();
    expect(getByRole(body(), 'navigation', { name: 'Account', hidden: true })).toBeTruthy();
    expect(getByRole(body(), 'link', { name: 'Skip to content', hidden: true }).getAttribute('href')).toBe('#main-content');
    expect(body().querySelector('.loading-screen')).toBeNull();
  });

  it("holds no member's data and offers no action that needs it", () => {
    expect(body().querySelector('.member-greeting')?.textContent).toBe('Hello, ');
    expect(queryByTestId(body(), 'loan-number')).toBeNull();
    expect(queryByRole(body(), 'button', { name: 'Quick loan', hidden: true })).toBeNull();
    expect(queryByRole(body(), 'link', { name: 'Withdraw now', hidden: true })).toBeNull();
    expect(body().textContent).not.toMatch(/\+63\d/);
    // Nothing said about verification, which depends on the member.
    expect(queryByRole(body(), 'region', { name: 'Account verification', hidden: true })).toBeNull();
    expect(body().textContent).not.toMatch(/verified|Verify now/i);
    // Nor the inbox, whose unread count is the member's.
    expect(queryByRole(body(), 'button', { name: /Notifications/, hidden: true })).toBeNull();
  });
});

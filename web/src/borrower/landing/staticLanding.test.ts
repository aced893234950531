import { getByRole, queryByRole } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch } from '../../testing/http';
import { BANNER_INTERVAL_MS } from './bannerTiming';
import { renderLanding } from './prerender';
import { enhanceCarousel, enhanceMenu, enhanceOfflineNotice, showCompanyFooter, showNewVersionToast } from './staticLanding';

// The prerendered landing page (issue 20): the markup the build puts in index.html, and the
// script that gives it the behaviour the React components have, without React.

const body = () => document.body;

beforeEach(() => {
  const { page, menu } = renderLanding();
  document.body.innerHTML = `<div id="root" data-landing="static">${page}</div><template id="landing-menu">${menu}</template>`;
});

afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('the prerendered landing page', () => {
  it("is the app's landing page for a visitor: shell, pitch, links to registration and sign-in, no spinner, no tab bar", () => {
    expect(getByRole(body(), 'heading', { level: 1, name: 'Effortless Borrowing, Smooth as Honey!' })).toBeTruthy();
    expect(getByRole(body(), 'link', { name: 'Skip to content' }).getAttribute('href')).toBe('#main-content');
    expect(getByRole(body(), 'link', { name: 'Register (new client)' }).getAttribute('href')).toBe('/app-login?register=true');
    expect(getByRole(body(), 'link', { name: 'Login' }).getAttribute('href')).toBe('/app-login');
    expect(getByRole(body(), 'link', { name: 'Request now' }).getAttribute('href')).toBe('/app-login?register=true');
    expect(getByRole(body(), 'button', { name: 'Open menu' }).getAttribute('aria-expanded')).toBe('false');
    expect(getByRole(body(), 'region', { name: 'Notifications' })).toBeTruthy();
    expect(body().querySelector('.loading-screen')).toBeNull();
    expect(queryByRole(body(), 'navigation', { name: 'Account' })).toBeNull();
  });
});

describe('its carousel', () => {
  const carousel = () => body().querySelector<HTMLElement>('.carousel')!;
  const current = () => [...body().querySelectorAll('.carousel__dot')].findIndex((dot) => dot.getAttribute('aria-current') === 'true');

  it('moves with its arrows and dots, showing one slide to assistive technology', () => {
    enhanceCarousel(carousel());
    getByRole(body(), 'button', { name: 'Previous banner' }).click();
    expect(current()).toBe(2);
    expect(body().querySelector<HTMLElement>('.carousel__track')!.style.transform).toBe('translateX(-200%)');
    expect([...body().querySelectorAll('.carousel__slide')].map((slide) => slide.getAttribute('aria-hidden'))).toEqual(['true', 'true', 'false']);
    getByRole(body(), 'button', { name: 'Next banner' }).click();
    expect(current()).toBe(0);
    getByRole(body(), 'button', { name: 'Show banner 2: Digital lending' }).click();
    expect(current()).toBe(1);
  });

  it('loops on its own, stops on the pause button and starts again on play', () => {
    vi.useFakeTimers();
    enhanceCarousel(carousel());
    vi.advanceTimersByTime(BANNER_INTERVAL_MS);
    expect(current()).toBe(1);
    getByRole(body(), 'button', { name: 'Pause banners' }).click();
    vi.advanceTimersByTime(BANNER_INTERVAL_MS * 3);
    expect(current()).toBe(1);
    getByRole(body(), 'button', { name: 'Play banners' }).click();
    vi.advanceTimersByTime(BANNER_INTERVAL_MS);
    expect(current()).toBe(2);
  });

  it('holds still while focused, and moves again once focus leaves', () => {
    vi.useFakeTimers();
    enhanceCarousel(carousel());
    getByRole(body(), 'button', { name: 'Next banner' }).focus();
    vi.advanceTimersByTime(BANNER_INTERVAL_MS * 2);
    expect(current()).toBe(0);
    getByRole(body(), 'link', { name: 'Request now' }).focus();
    vi.advanceTimersByTime(BANNER_INTERVAL_MS);
    expect(current()).toBe(1);
  });

  it('never moves, and offers no pause button, for reduced motion', () => {
    vi.useFakeTimers();
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(prefers-reduced-motion: reduce)' }));
    enhanceCarousel(carousel());
    vi.advanceTimersByTime(BANNER_INTERVAL_MS * 3);
    expect(current()).toBe(0);
    expect(queryByRole(body(), 'button', { name: 'Pause banners' })).toBeNull();
  });
});

describe('its menu', () => {
  const openButton = () => getByRole<HTMLButtonElement>(body(), 'button', { name: 'Open menu' });
  const enhance = () => enhanceMenu(openButton(), document.getElementById('landing-menu') as HTMLTemplateElement);
  const key = (target: Element, init: KeyboardEventInit) => target.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init }));

  it('opens with focus inside, keeps Tab inside, closes on Escape and gives focus back', () => {
    enhance();
    openButton().click();
    const menu = getByRole(body(), 'dialog', { name: 'Menu' });
    expect(openButton().getAttribute('aria-expanded')).toBe('true');
    expect(openButton().getAttribute('aria-controls')).toBe(menu.id);
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Close menu');
    expect([...menu.querySelectorAll('a')].map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Home', '/'],
      ['Login', '/app-login'],
    ]);
    const login = getByRole(menu, 'link', { name: 'Login' });
    login.focus();
    key(login, { key: 'Tab' });
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Close menu');
    key(document.activeElement!, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(login);

    key(login, { key: 'Escape' });
    expect(queryByRole(body(), 'dialog', { name: 'Menu' })).toBeNull();
    expect(openButton().getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(openButton());
  });

  it('closes on its close button, on a tap beside it and on Home (this page)', () => {
    enhance();
    openButton().click();
    getByRole(body(), 'button', { name: 'Close menu' }).click();
    expect(queryByRole(body(), 'dialog', { name: 'Menu' })).toBeNull();

    openButton().click();
    body().querySelector<HTMLElement>('.side-menu-backdrop')!.click();
    expect(queryByRole(body(), 'dialog', { name: 'Menu' })).toBeNull();

    openButton().click();
    const home = getByRole(getByRole(body(), 'dialog', { name: 'Menu' }), 'link', { name: 'Home' });
    expect(home.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }))).toBe(false);
    expect(queryByRole(body(), 'dialog', { name: 'Menu' })).toBeNull();
  });

  it("closes on the phone's back button", () => {
    enhance();
    openButton().click();
    window.history.replaceState(null, '');
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
    expect(queryByRole(body(), 'dialog', { name: 'Menu' })).toBeNull();
  });
});

describe('its notices', () => {
  it("shows the lender's details once the operator published them", async () => {
    const fetchMock = mockFetch(
      jsonResponse({ companyName: 'Pulot Lending Corporation', secRegistrationNumber: 'CS202012345', certificateOfAuthorityNumber: '3456', address: 'Makati', email: 'hello@pulot.ph', phone: '+63281234567' }),
    );
    await showCompanyFooter(document.getElementById('main-content')!);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/company');
    const footer = getByRole(body(), 'contentinfo', { name: 'Lender' });
    expect(footer.textContent).toContain('Pulot Lending Corporation');
    expect(footer.textContent).toContain('SEC Registration No. CS202012345 · Certificate of Authority No. 3456');
    expect(footer.textContent).toContain('Read the Disclosure Statement before you proceed');
  });

  it("shows no lender's footer while none is published, or when the server cannot be reached", async () => {
    mockFetch(jsonResponse({}), new TypeError('Failed to fetch'));
    await showCompanyFooter(document.getElementById('main-content')!);
    await showCompanyFooter(document.getElementById('main-content')!);
    expect(queryByRole(body(), 'contentinfo', { name: 'Lender' })).toBeNull();
  });

  it('says when the phone is offline, and stops saying it when the connection is back', () => {
    enhanceOfflineNotice(body().querySelector<HTMLElement>('.top-bar')!);
    window.dispatchEvent(new Event('offline'));
    expect(body().querySelector('.offline-banner')?.textContent).toMatch(/^No internet connection\. What you see was last updated at .+ and may be out of date\.$/);
    window.dispatchEvent(new Event('online'));
    expect(body().querySelector('.offline-banner')).toBeNull();
  });

  it('says a new version is ready, until closed', () => {
    showNewVersionToast(body().querySelector<HTMLElement>('.toaster__list')!);
    const toast = getByRole(body(), 'status', { name: '' });
    expect(toast.textContent).toContain('New version available');
    getByRole(body(), 'button', { name: 'Close notification' }).click();
    expect(body().querySelector('.toast')).toBeNull();
  });
});

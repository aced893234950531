import { DISCLOSURE_ADVISORY, isCompanySet, type CompanyAnswer } from '@honeylend/contracts';
import { formatTime } from '../../shared/money';
import { NEW_VERSION_TOAST } from '../../shared/newVersionNotice';
import { BANNER_INTERVAL_MS } from './bannerTiming';

/**
 * The prerendered landing page's behaviour without React (issue 20): index.html holds the page as
 * the app draws it for a visitor (borrower/landing/prerender.tsx); these functions give it what
 * the React components would — the carousel, the menu, the offline notice, the lender's footer
 * and the new-version notice — with the same markup, labels and keyboard behaviour.
 */

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * The banners (as BannerCarousel): loop on their own every BANNER_INTERVAL_MS, pause while pointed
 * at or focused, stop and start again on the pause button (WCAG 2.2.2), never move for reduced motion.
 */
export function enhanceCarousel(carousel: HTMLElement): () => void {
  const track = carousel.querySelector<HTMLElement>('.carousel__track');
  const slides = [...carousel.querySelectorAll<HTMLElement>('.carousel__slide')];
  const dots = [...carousel.querySelectorAll<HTMLButtonElement>('.carousel__dot')];
  const arrows = [...carousel.querySelectorAll<HTMLButtonElement>('.carousel__arrow:not(.carousel__pause)')];
  const pause = carousel.querySelector<HTMLButtonElement>('.carousel__pause');
  const count = slides.length;
  const reducedMotion = prefersReducedMotion();
  let current = 0;
  let paused = false;
  let stopped = false;
  let timer: ReturnType<typeof setInterval> | undefined;

  if (reducedMotion) pause?.remove();

  const draw = () => {
    if (track) track.style.transform = `translateX(-${current * 100}%)`;
    slides.forEach((slide, index) => slide.setAttribute('aria-hidden', String(index !== current)));
    dots.forEach((dot, index) => dot.setAttribute('aria-current', String(index === current)));
    if (pause) {
      pause.setAttribute('aria-label', stopped ? 'Play banners' : 'Pause banners');
      const icon = pause.querySelector('span');
      if (icon) icon.textContent = stopped ? '▶' : '❚❚';
    }
  };
  const show = (index: number) => {
    current = (index + count) % count;
    draw();
  };
  // Like the component's effect: the loop restarts only when whether it runs changes.
  const run = () => {
    const running = !(paused || stopped || reducedMotion);
    if (running && timer === undefined) timer = setInterval(() => show(current + 1), BANNER_INTERVAL_MS);
    if (!running && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };

  arrows[0]?.addEventListener('click', () => show(current - 1));
  arrows[1]?.addEventListener('click', () => show(current + 1));
  dots.forEach((dot, index) => dot.addEventListener('click', () => show(index)));
  pause?.addEventListener('click', () => {
    stopped = !stopped;
    draw();
    run();
  });
  const setPaused = (value: boolean) => {
    paused = value;
    run();
  };
  carousel.addEventListener('pointerenter', () => setPaused(true));
  carousel.addEventListener('pointerleave', () => setPaused(false));
  carousel.addEventListener('focusin', () => setPaused(true));
  carousel.addEventListener('focusout', (event) => {
    if (!(event.relatedTarget instanceof Node && carousel.contains(event.relatedTarget))) setPaused(false);
  });
  draw();
  run();
  return () => {
    stopped = true;
    run();
  };
}

const MODAL_MARKER = 'honeylendModal';

/**
 * The top bar's menu (as TopBar, SideMenu, useModalFocus and useCloseOnBack): opens from its
 * button with focus inside, Tab stays inside, Escape, the close button, a tap beside it and the
 * phone's back button close it, and focus goes back to the button.
 */
export function enhanceMenu(button: HTMLButtonElement, template: HTMLTemplateElement): void {
  let backdrop: HTMLElement | null = null;
  let marker = '';

  const close = (byBack: boolean) => {
    if (!backdrop) return;
    backdrop.remove();
    backdrop = null;
    button.setAttribute('aria-expanded', 'false');
    button.removeAttribute('aria-controls');
    window.removeEventListener('popstate', onPopState);
    if (!byBack && (window.history.state as Record<string, unknown> | null)?.[MODAL_MARKER] === marker) window.history.back();
    button.focus();
  };
  function onPopState() {
    if ((window.history.state as Record<string, unknown> | null)?.[MODAL_MARKER] !== marker) close(true);
  }

  button.addEventListener('click', () => {
    if (backdrop) return;
    const opened = template.content.firstElementChild?.cloneNode(true);
    if (!(opened instanceof HTMLElement)) return;
    backdrop = opened;
    const panel = opened.querySelector<HTMLElement>('[role="dialog"]') ?? opened;
    button.after(opened);
    button.setAttribute('aria-expanded', 'true');
    button.setAttribute('aria-controls', panel.id);
    marker = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
    window.history.pushState({ ...(window.history.state as object | null), [MODAL_MARKER]: marker }, '');
    window.addEventListener('popstate', onPopState);
    const focusables = () => [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)];
    (focusables()[0] ?? panel).focus({ preventScroll: true });

    opened.addEventListener('click', (event) => {
      if (event.target === opened) close(false);
    });
    panel.querySelector('button[aria-label="Close menu"]')?.addEventListener('click', () => close(false));
    for (const link of panel.querySelectorAll<HTMLAnchorElement>('a[href]')) {
      // Home is this page: the menu just closes. Other links load their page (the app).
      if (link.getAttribute('href') === '/')
        link.addEventListener('click', (event) => {
          event.preventDefault();
          close(false);
        });
    }
    panel.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        close(false);
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusables();
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) {
        event.preventDefault();
      } else if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    });
  });
}

/** While the phone has no connection, says so under the top bar (as OfflineBanner). */
export function enhanceOfflineNotice(topBar: HTMLElement): void {
  let banner: HTMLElement | null = null;
  const offline = () => {
    banner?.remove();
    banner = document.createElement('div');
    banner.className = 'offline-banner';
    banner.setAttribute('role', 'status');
    const strong = document.createElement('strong');
    strong.textContent = 'No internet connection.';
    banner.append(strong, ` What you see was last updated at ${formatTime(new Date().toISOString())} and may be out of date.`);
    topBar.after(banner);
  };
  window.addEventListener('offline', offline);
  window.addEventListener('online', () => {
    banner?.remove();
    banner = null;
  });
  if (!navigator.onLine) offline();
}

/** The lender's name, SEC registration and advisory under the page, once the operator published them (as CompanyFooter). */
export async function showCompanyFooter(main: HTMLElement): Promise<void> {
  let company: CompanyAnswer;
  try {
    const response = await fetch('/api/company', { headers: { Accept: 'application/json' } });
    if (!response.ok) return;
    company = (await response.json()) as CompanyAnswer;
  } catch {
    return;
  }
  if (!isCompanySet(company)) return;
  const footer = document.createElement('footer');
  footer.className = 'company-footer';
  footer.setAttribute('aria-label', 'Lender');
  const line = (text: string, className?: string) => {
    const paragraph = document.createElement('p');
    if (className) paragraph.className = className;
    paragraph.textContent = text;
    return paragraph;
  };
  footer.append(
    line(company.companyName, 'company-footer__name'),
    line(`SEC Registration No. ${company.secRegistrationNumber} · Certificate of Authority No. ${company.certificateOfAuthorityNumber}`),
    line(DISCLOSURE_ADVISORY, 'company-footer__advisory'),
  );
  main.after(footer);
}

const TOAST_MS = 10_000;

/** A notice in the page's toaster region (as Toaster): closes itself after a while, or on its button. */
export function showToast(list: HTMLElement, title: string, description: string): void {
  const item = document.createElement('li');
  item.className = 'toast';
  item.dataset.state = 'open';
  item.setAttribute('role', 'status');
  const text = document.createElement('div');
  text.className = 'toast__text';
  const heading = document.createElement('p');
  heading.className = 'toast__title';
  heading.textContent = title;
  const body = document.createElement('p');
  body.className = 'toast__description';
  body.textContent = description;
  text.append(heading, body);
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'toast__close';
  close.setAttribute('aria-label', 'Close notification');
  close.innerHTML = '<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d="M6 6l12 12M18 6L6 18" stroke="currentColor" stroke-width="2" stroke-linecap="round"></path></svg>';
  item.append(text, close);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const dismiss = () => item.remove();
  // The display time restarts after a pause so a reader who hovered or focused it is not cut short.
  const start = () => {
    clearTimeout(timer);
    timer = setTimeout(dismiss, TOAST_MS);
  };
  const hold = () => clearTimeout(timer);
  item.addEventListener('pointerenter', hold);
  item.addEventListener('focusin', hold);
  item.addEventListener('pointerleave', start);
  item.addEventListener('focusout', start);
  close.addEventListener('click', dismiss);
  list.append(item);
  start();
}

/** The new-version notice of the service worker registration (as shared/serviceWorker). */
export function showNewVersionToast(list: HTMLElement): void {
  showToast(list, NEW_VERSION_TOAST.title, NEW_VERSION_TOAST.description);
}

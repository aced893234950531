import { useEffect, useRef, type RefObject } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Keyboard behaviour of a modal panel while `open`: focus moves into it, Tab cycles inside it,
 * Escape closes it, and focus returns to where it was once it closes.
 */
export function useModalFocus(open: boolean, panel: RefObject<HTMLElement | null>, onClose: () => void): void {
  // The latest onClose is read at key time, so a new callback each render does not re-run the focus set-up.
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  });

  useEffect(() => {
    const container = panel.current;
    if (!open || !container) return;
    const returnFocusTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const focusables = () => [...container.querySelectorAll<HTMLElement>(FOCUSABLE)];
    // No scrolling: a long dialog opens at its title even when its first control is further down.
    (focusables()[0] ?? container).focus({ preventScroll: true });

    function onKeyDown(event: KeyboardEvent) {
      if (event.key === 'Escape') {
        event.stopPropagation();
        closeRef.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusables();
      if (items.length === 0) {
        event.preventDefault();
        return;
      }
      const first = items[0];
      const last = items[items.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }

    container.addEventListener('keydown', onKeyDown);
    return () => {
      container.removeEventListener('keydown', onKeyDown);
      returnFocusTo?.focus();
    };
  }, [open, panel]);
}

import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { TOAST_SWIPE_THRESHOLD_PX, useToasts, type Toast } from './toastStore';

/** The one place toasts appear; mounted once at the root of the app. */
export function Toaster() {
  const toasts = useToasts((state) => state.toasts);
  return (
    <section className="toaster" aria-label="Notifications">
      <ol className="toaster__list" aria-live="polite">
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} />
        ))}
      </ol>
    </section>
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useToasts((state) => state.dismiss);
  const [paused, setPaused] = useState(false);
  const [swipeOffset, setSwipeOffset] = useState(0);
  const swipeStartX = useRef<number | null>(null);

  useEffect(() => {
    // The display time restarts after a pause so a reader who hovered or focused it is not cut short.
    if (!toast.open || paused) return;
    const timer = setTimeout(() => dismiss(toast.id), toast.durationMs);
    return () => clearTimeout(timer);
  }, [toast.open, toast.id, toast.durationMs, paused, dismiss]);

  function startSwipe(event: PointerEvent<HTMLLIElement>) {
    // Capturing a press on the close button would steal its click.
    if (event.target instanceof Element && event.target.closest('button')) return;
    swipeStartX.current = event.clientX;
    event.currentTarget.setPointerCapture?.(event.pointerId);
  }

  function followSwipe(event: PointerEvent<HTMLLIElement>) {
    if (swipeStartX.current === null) return;
    setSwipeOffset(event.clientX - swipeStartX.current);
  }

  function endSwipe(event: PointerEvent<HTMLLIElement>) {
    if (swipeStartX.current === null) return;
    const distance = event.clientX - swipeStartX.current;
    swipeStartX.current = null;
    setSwipeOffset(0);
    if (Math.abs(distance) > TOAST_SWIPE_THRESHOLD_PX) dismiss(toast.id);
  }

  function cancelSwipe() {
    swipeStartX.current = null;
    setSwipeOffset(0);
  }

  const destructive = toast.variant === 'destructive';
  return (
    <li
      className={`toast${destructive ? ' toast--destructive' : ''}`}
      data-state={toast.open ? 'open' : 'closed'}
      role={destructive ? 'alert' : 'status'}
      aria-hidden={toast.open ? undefined : true}
      style={swipeOffset ? { transform: `translateX(${swipeOffset}px)`, transition: 'none' } : undefined}
      onPointerDown={startSwipe}
      onPointerMove={followSwipe}
      onPointerUp={endSwipe}
      onPointerCancel={cancelSwipe}
      onPointerEnter={() => setPaused(true)}
      onPointerLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <div className="toast__text">
        <p className="toast__title">{toast.title}</p>
        {toast.description && <p className="toast__description">{toast.description}</p>}
      </div>
      <button type="button" className="toast__close" aria-label="Close notification" tabIndex={toast.open ? 0 : -1} onClick={() => dismiss(toast.id)}>
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
          <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </li>
  );
}

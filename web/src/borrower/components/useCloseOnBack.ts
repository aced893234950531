import { useEffect, useRef } from 'react';

const MARKER = 'honeylendModal';

/**
 * The phone's back button closes an open modal instead of leaving the page: while `open`, the
 * modal has a history entry of its own (same URL), and going back from it calls `onBack`. When
 * `onBack` answers false (the modal stays, e.g. to ask about typed data) the entry is put back.
 * A modal closed any other way removes its entry again, unless something navigated meanwhile.
 */
export function useCloseOnBack(open: boolean, onBack: () => boolean): void {
  const onBackRef = useRef(onBack);
  useEffect(() => {
    onBackRef.current = onBack;
  });

  useEffect(() => {
    if (!open) return;
    const marker = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const push = () => window.history.pushState({ ...(window.history.state as object | null), [MARKER]: marker }, '');
    push();
    let ownEntryGone = false;
    function onPopState() {
      if ((window.history.state as Record<string, unknown> | null)?.[MARKER] === marker) return;
      ownEntryGone = true;
      if (!onBackRef.current()) {
        push();
        ownEntryGone = false;
      }
    }
    window.addEventListener('popstate', onPopState);
    return () => {
      window.removeEventListener('popstate', onPopState);
      if (ownEntryGone) return;
      // Deferred: a link that closed the modal has pushed its page by then, and that page stays.
      window.setTimeout(() => {
        if ((window.history.state as Record<string, unknown> | null)?.[MARKER] === marker) window.history.back();
      }, 0);
    };
  }, [open]);
}

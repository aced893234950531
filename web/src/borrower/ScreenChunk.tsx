import { Suspense, type ReactNode } from 'react';

/**
 * Holds a lazily loaded screen's place while its chunk arrives: an empty block as tall as the
 * viewport below the top bar, so the footer-less shell does not collapse and then jump (CLS).
 */
export function ScreenChunk({ children }: { children: ReactNode }) {
  return <Suspense fallback={<div className="screen-placeholder" role="status" aria-label="Loading" />}>{children}</Suspense>;
}

import { useEffect } from 'react';

const PRODUCT_NAME = 'Honeylend';

/** Names the page in the browser tab and for screen readers that announce route changes. */
export function useDocumentTitle(pageTitle: string): void {
  useEffect(() => {
    document.title = `${pageTitle} · ${PRODUCT_NAME}`;
  }, [pageTitle]);
}

/** How long each banner of the landing page's carousel shows before the next (React and prerendered page alike). */
export const BANNER_INTERVAL_MS = 4500;

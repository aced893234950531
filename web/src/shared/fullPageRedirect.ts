/**
 * Leaves the single-page app for a fresh load of `path`, so every store starts again from the
 * stored token (spec §2: sign-in and registration end with a full-page redirect).
 */
export function fullPageRedirect(path: string): void {
  window.location.assign(path);
}

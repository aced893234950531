/** Spec §9: the session token lives in local storage under this key. */
export const TOKEN_STORAGE_KEY = 'token';

export function readToken(): string | null {
  return localStorage.getItem(TOKEN_STORAGE_KEY);
}

export function storeToken(token: string): void {
  localStorage.setItem(TOKEN_STORAGE_KEY, token);
}

export function removeToken(): void {
  localStorage.removeItem(TOKEN_STORAGE_KEY);
}

/** Staff who sign in at /admin-login: admins, the main admin, and read-only auditors (who work at /audit). */
export type StaffRole = 'admin' | 'superadmin' | 'auditor';

/**
 * The role a token names, read from its payload without checking the signature: only to choose
 * which screens to draw. Every request is still authorised by the server.
 */
export function staffRoleOf(token: string): StaffRole | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(
      payload
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(payload.length / 4) * 4, '='),
    );
    const role = (JSON.parse(json) as { role?: unknown }).role;
    return role === 'admin' || role === 'superadmin' || role === 'auditor' ? role : null;
  } catch {
    return null;
  }
}

/** The account id (`sub`) a token names, read like staffRoleOf: only to choose what to draw (e.g. one's own approval requests). */
export function tokenSubjectOf(token: string): string | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(
      payload
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(payload.length / 4) * 4, '='),
    );
    const sub = (JSON.parse(json) as { sub?: unknown }).sub;
    return typeof sub === 'string' ? sub : null;
  } catch {
    return null;
  }
}

import { ApiError, apiRequest, type ApiRequestOptions } from '../shared/api';
import { toast } from '../shared/toast/toastStore';

/** `{ items, total, page, pageSize }`: the shape of every admin list. */
export interface ListPage<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** The query string of an admin list; empty values are left out. */
export function listPath(path: string, params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '' && value !== 'all') query.set(key, String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** The server's words for a failure, for the toast's second line. */
export function reasonOf(error: unknown): string {
  return error instanceof ApiError || error instanceof Error ? error.message : 'Please try again';
}

/** Spec §8's destructive toasts: the title names what failed, the description says why. */
export function failureToast(title: string, error: unknown): void {
  toast({ variant: 'destructive', title, description: reasonOf(error) });
}

export function successToast(title: string, description?: string): void {
  toast({ title, description });
}

/** Runs a write; on failure shows `failureTitle` and answers null, so a dialog can stay open. */
export async function attempt<T>(failureTitle: string, path: string, options: ApiRequestOptions): Promise<T | null> {
  try {
    return await apiRequest<T>(path, options);
  } catch (error) {
    failureToast(failureTitle, error);
    return null;
  }
}

/**
 * Four eyes (design §11): a command that needs a second admin answers 202 `{ approvalId, status:
 * 'awaiting_approval' }` and nothing of it has happened yet. Says so (naming what waits), and
 * answers true so the caller does not show the command as done.
 */
export function sentForApproval(answer: unknown, what: string): answer is { approvalId: string; status: 'awaiting_approval' } {
  if (typeof answer !== 'object' || answer === null || (answer as { status?: unknown }).status !== 'awaiting_approval') return false;
  toast({ title: 'Sent for approval', description: `${what} happens only when a different admin approves it on the Approvals page.` });
  return true;
}

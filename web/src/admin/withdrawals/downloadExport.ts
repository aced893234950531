import { ApiError } from '../../shared/api';
import { readToken } from '../../shared/authToken';
import { listPath } from '../adminApi';

/** The file name the server gives (Content-Disposition), or a dated one. */
export function exportFileName(disposition: string | null, today = new Date()): string {
  const named = disposition ? /filename="?([^";]+)"?/i.exec(disposition)?.[1] : undefined;
  return named ?? `withdrawals-${today.toISOString().slice(0, 10)}.csv`;
}

/**
 * 'Export Report': the CSV of the list as filtered now (status and search, every page), fetched
 * with the admin's token and handed to the browser as a download.
 */
export async function downloadWithdrawalsCsv(filter: { search: string; status: string }): Promise<string> {
  const token = readToken();
  const response = await fetch(listPath('/api/admin/withdrawals/export', { search: filter.search.trim(), status: filter.status }), {
    headers: { Accept: 'text/csv', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    credentials: 'include',
    cache: 'no-store',
  }).catch((cause: unknown) => {
    throw new ApiError('Request failed', 0, null, { cause });
  });
  if (!response.ok) {
    const text = await response.text();
    let message = `${response.status}: ${response.statusText}`;
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? message;
    } catch {
      // not JSON: keep the status line
    }
    throw new ApiError(message, response.status, text);
  }
  const fileName = exportFileName(response.headers.get('Content-Disposition'));
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started; the object URL is released a little later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return fileName;
}

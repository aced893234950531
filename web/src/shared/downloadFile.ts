import { ApiError } from './api';
import { readToken } from './authToken';

/** The file name the server gives (Content-Disposition), or `fallback`. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  const named = disposition ? /filename="?([^";]+)"?/i.exec(disposition)?.[1] : undefined;
  return named ?? fallback;
}

/**
 * Fetches a file the API makes (an export, a report) with the stored token and hands it to the
 * browser as a download; answers the file's name. A refusal becomes an ApiError with the server's message.
 */
export async function downloadFile(path: string, accept: string, fallbackName: string): Promise<string> {
  const token = readToken();
  const response = await fetch(path, {
    headers: { Accept: accept, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
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
  const fileName = fileNameOf(response.headers.get('Content-Disposition'), fallbackName);
  saveBlob(await response.blob(), fileName);
  return fileName;
}

/** Hands `blob` to the browser as a download named `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started; the object URL is released a little later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

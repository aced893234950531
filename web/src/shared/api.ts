import { readToken, removeToken } from './authToken';

/** Why a request failed: the message to show, the HTTP status (0 when the server was not reached) and the body. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    message: string,
    readonly status: number,
    readonly data: unknown,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  /** True for the 403 that forces a suspended member out; its flow has already run when this is thrown. */
  get accountSuspended(): boolean {
    return this.status === 403 && isRecord(this.data) && this.data.accountStatus === 'suspended';
  }
}

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  cache?: RequestCache;
  signal?: AbortSignal;
}

export const REQUEST_FAILED = 'Request failed';
export const UPLOAD_FAILED = 'Upload failed';

type AccountSuspendedListener = () => void;
const accountSuspendedListeners = new Set<AccountSuspendedListener>();

/**
 * Subscribes to the suspended-account flow (spec §4). The client has already removed the token
 * when listeners run; they clear what they hold and take the browser to sign-in.
 */
export function onAccountSuspended(listener: AccountSuspendedListener): () => void {
  accountSuspendedListeners.add(listener);
  return () => accountSuspendedListeners.delete(listener);
}

/**
 * Calls the API the way every screen does (spec §7): cookies sent, the stored token as a bearer
 * header, JSON in and out. Resolves with the parsed body (null when empty); rejects with ApiError.
 */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const token = readToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const hasBody = options.body !== undefined;
  if (hasBody) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? (hasBody ? 'POST' : 'GET'),
      headers,
      body: hasBody ? JSON.stringify(options.body) : undefined,
      credentials: 'include',
      cache: options.cache,
      signal: options.signal,
    });
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    throw new ApiError(REQUEST_FAILED, 0, null, { cause });
  }

  const text = await response.text();
  const parsed = parseJson(text);

  if (!response.ok) {
    const error = errorOf(response, text, parsed);
    if (error.accountSuspended) runAccountSuspendedFlow();
    throw error;
  }
  if (text.trim() === '') return null as T;
  if (!parsed.ok) throw new ApiError(REQUEST_FAILED, response.status, text);
  return parsed.value as T;
}

/**
 * POSTs one file as multipart field `file` (spec §7), with the same token and error rules as
 * every other call; 'Upload failed' stands in when nothing better is known.
 */
export async function apiUpload<T>(path: string, file: Blob, fileName: string, options: { signal?: AbortSignal } = {}): Promise<T> {
  const form = new FormData();
  form.append('file', file, fileName);
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = readToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(path, { method: 'POST', headers, body: form, credentials: 'include', signal: options.signal });
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    throw new ApiError(UPLOAD_FAILED, 0, null, { cause });
  }
  const text = await response.text();
  const parsed = parseJson(text);
  if (!response.ok) {
    const error = errorOf(response, text, parsed, UPLOAD_FAILED);
    if (error.accountSuspended) runAccountSuspendedFlow();
    throw error;
  }
  if (!parsed.ok) throw new ApiError(UPLOAD_FAILED, response.status, text);
  return parsed.value as T;
}

/** Spec §8: the body's message, else the status text; a body that is not JSON reads "<status>: <text>". */
function errorOf(response: Response, text: string, parsed: ParsedJson, fallback = REQUEST_FAILED): ApiError {
  if (!parsed.ok) {
    const detail = text.trim() || response.statusText;
    return new ApiError(detail ? `${response.status}: ${detail}` : fallback, response.status, text);
  }
  const body = parsed.value;
  const message = isRecord(body) && typeof body.message === 'string' && body.message ? body.message : response.statusText || fallback;
  return new ApiError(message, response.status, body);
}

function runAccountSuspendedFlow(): void {
  removeToken();
  for (const listener of [...accountSuspendedListeners]) listener();
}

type ParsedJson = { ok: true; value: unknown } | { ok: false };

function parseJson(text: string): ParsedJson {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The per-field messages of a 400 answer (`details.fields`), or none. */
export function serverFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !isRecord(error.data)) return {};
  const details = error.data.details;
  const fields = isRecord(details) ? details.fields : undefined;
  if (!isRecord(fields)) return {};
  const messages: Record<string, string> = {};
  for (const [field, message] of Object.entries(fields)) {
    if (typeof message === 'string') messages[field] = message;
  }
  return messages;
}

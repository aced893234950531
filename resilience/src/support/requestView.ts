import { parse as parseQueryString, type ParsedUrlQuery } from 'node:querystring';
import type { FuzzRequest } from './hostileInputs.js';

/** koa-body's JSON types (its default `jsonTypes`), matched like Koa's ctx.is: type/subtype, any case, parameters ignored. */
const JSON_TYPES = new Set(['application/json', 'application/json-patch+json', 'application/vnd.api+json', 'application/csp-report', 'application/reports+json']);
/** The API's koaBody({ jsonLimit: '100kb' }). */
const JSON_LIMIT_BYTES = 100 * 1024;
// eslint-disable-next-line no-control-regex -- JSON's own whitespace is tab, LF and CR besides space
const STRICT_JSON_START = /^[\x20\x09\x0a\x0d]*(\[|\{)/;

/**
 * What the API's handlers see of a request, worked out the way its body parser (koa-body over
 * co-body, strict JSON, `__proto__` refused) and Koa's query parser (node:querystring) work —
 * or the status the parser itself refuses it with. The check compares the server's answer with it.
 */
export type RequestView = { refusedWith: 400 | 413; why: string } | { body: unknown; query: ParsedUrlQuery };

export function viewOf(method: string, request: FuzzRequest): RequestView {
  const query = parseQueryString(request.query);
  if (!['POST', 'PUT', 'PATCH'].includes(method) || request.body === undefined) return { body: undefined, query };
  const type = (request.contentType ?? '').split(';')[0].trim().toLowerCase();
  if (!JSON_TYPES.has(type)) return { body: undefined, query };
  if (Buffer.byteLength(request.body) > JSON_LIMIT_BYTES) return { refusedWith: 413, why: 'larger than the JSON limit' };
  if (request.body === '') return { body: {}, query };
  if (!STRICT_JSON_START.test(request.body)) return { refusedWith: 400, why: 'not a JSON object or array' };
  let body: unknown;
  try {
    body = JSON.parse(request.body);
  } catch {
    return { refusedWith: 400, why: 'not JSON' };
  }
  const unusable = unusableJsonOf(body);
  if (unusable) return { refusedWith: 400, why: unusable };
  return { body, query };
}

/** The API refuses bodies nested deeper than this (command-api's jsonBodyGuard). */
const MAX_DEPTH = 32;
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const unstorable = (text: string) => text.includes('\u0000') || UNPAIRED_SURROGATE.test(text);

/**
 * Why a parsed body is refused whatever the route, or null: a `__proto__` key (the body parser's
 * prototype-poisoning guard), deeper nesting than the API takes, or text PostgreSQL cannot store.
 */
function unusableJsonOf(body: unknown): string | null {
  const pending: { value: unknown; depth: number }[] = [{ value: body, depth: 0 }];
  let why: string | null = null;
  while (pending.length) {
    const { value, depth } = pending.pop()!;
    if (typeof value === 'string') {
      if (unstorable(value)) why ??= 'text with U+0000 or an unpaired surrogate';
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (Object.prototype.hasOwnProperty.call(value, '__proto__')) return 'a __proto__ key';
    if (depth >= MAX_DEPTH) {
      why ??= 'nested too deeply';
      continue;
    }
    for (const [key, item] of Object.entries(value)) {
      if (unstorable(key)) why ??= 'a key with U+0000 or an unpaired surrogate';
      pending.push({ value: item, depth: depth + 1 });
    }
  }
  return why;
}

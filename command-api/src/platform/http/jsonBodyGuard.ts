import type { Context, Next } from 'koa';
import { ApiError } from '../errors/apiError.js';

/** No form of the API nests deeper than a few levels; this leaves ample room and stops stack-deep bodies. */
export const MAX_JSON_DEPTH = 32;

export const JSON_BODY_MESSAGES = {
  tooDeep: `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`,
  badText: 'Text must not contain the character U+0000 or unpaired surrogates',
} as const;

export type JsonBodyProblem = { kind: 'too deep' } | { kind: 'bad text'; path: string };

/** Text the event store can keep: PostgreSQL's jsonb refuses \u0000 and unpaired surrogates, so they never reach it. */
// eslint-disable-next-line no-control-regex -- matching U+0000 is the point: jsonb cannot store it
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const isStorableText = (text: string) => !UNSTORABLE.test(text);

/**
 * What makes a parsed JSON body unusable whatever the route: nesting deeper than MAX_JSON_DEPTH
 * (JSON.stringify of it — the idempotency fingerprint, an event — overflows the stack) or text,
 * in a value or a key, that is not storable. Walked with an explicit stack, never recursively.
 */
export function jsonBodyProblemOf(body: unknown): JsonBodyProblem | null {
  const pending: { value: unknown; depth: number; path: string }[] = [{ value: body, depth: 0, path: '' }];
  while (pending.length) {
    const { value, depth, path } = pending.pop()!;
    if (typeof value === 'string') {
      if (!isStorableText(value)) return { kind: 'bad text', path: path || '_' };
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_JSON_DEPTH) return { kind: 'too deep' };
    for (const [key, item] of Object.entries(value)) {
      const itemPath = path ? `${path}.${key}` : key;
      if (!isStorableText(key)) return { kind: 'bad text', path: path || '_' };
      pending.push({ value: item, depth: depth + 1, path: itemPath });
    }
  }
  return null;
}

/** Refuses an unusable JSON body with 400 before any handler, fingerprint or log line touches it. */
export function jsonBodyGuard() {
  return async (ctx: Context, next: Next) => {
    const problem = jsonBodyProblemOf((ctx.request as { body?: unknown }).body);
    if (problem?.kind === 'too deep') throw new ApiError(400, 'BODY_TOO_DEEP', JSON_BODY_MESSAGES.tooDeep);
    if (problem?.kind === 'bad text') throw new ApiError(400, 'VALIDATION_FAILED', JSON_BODY_MESSAGES.badText, { fields: { [problem.path]: JSON_BODY_MESSAGES.badText } });
    await next();
  };
}

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { Context, Next } from 'koa';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

async function fileAt(path: string) {
  try {
    const info = await stat(path);
    return info.isFile() ? info : null;
  } catch {
    return null;
  }
}

/**
 * Serves the built web app: files under `root` as they are, and index.html for every other
 * GET so the client router can draw its routes (and its own 404 page). Hashed assets are
 * cached for a year; index.html never, so a deploy is picked up at once.
 */
export function staticWeb(root: string) {
  const index = join(root, 'index.html');
  return async (ctx: Context, next: Next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.path.startsWith('/api/') || ctx.path === '/api') return next();
    let relative: string;
    try {
      relative = normalize(decodeURIComponent(ctx.path)).replace(/^([/\\])+/, '');
    } catch {
      return next();
    }
    const candidate = join(root, relative);
    const inside = candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep);
    const file = inside && relative ? await fileAt(candidate) : null;
    const path = file ? candidate : index;
    const info = file ?? (await fileAt(index));
    if (!info) return next();
    ctx.type = CONTENT_TYPES[extname(path)] ?? 'application/octet-stream';
    ctx.length = info.size;
    ctx.set('Cache-Control', file && relative.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    ctx.body = ctx.method === 'HEAD' ? null : createReadStream(path);
  };
}

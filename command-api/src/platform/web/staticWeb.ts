import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { Context, Next } from 'koa';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * The build's precompressed copies (web/scripts/precompress.mjs writes `name.br` and `name.gz`
 * beside a file when they are smaller), best first.
 */
const PRECOMPRESSED = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/** The encodings an Accept-Encoding header allows (a q of 0 refuses one; `*` allows the rest). */
function acceptedEncodings(header: string | undefined): (encoding: string) => boolean {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  return (encoding) => (weights.get(encoding) ?? weights.get('*') ?? 0) > 0;
}

async function fileAt(path: string) {
  try {
    const info = await stat(path);
    return info.isFile() ? info : null;
  } catch {
    return null;
  }
}

/** Addresses with a page of their own, prerendered at build time (issue 20), by path without its leading slash. */
const PRERENDERED_PAGES: Record<string, string> = {
  // The landing page, drawn for a visitor: no React on a visitor's first load.
  '': 'index.html',
  // The signed-in dashboard's frame, drawn while the member's data loads; the app draws over it.
  'loan-app': 'dashboard.html',
};

/**
 * Serves the built web app: files under `root`; at `/` index.html and at `/loan-app`
 * dashboard.html, pages prerendered at build time (PRERENDERED_PAGES); and app.html — the app —
 * for every other GET so the client router can draw its routes (and its own 404 page). A build
 * without app.html gets index.html everywhere. A file with a precompressed copy goes as the
 * best copy the browser accepts (`Content-Encoding`, `Vary: Accept-Encoding`). Hashed assets are
 * cached for a year as immutable; everything else (index.html, the service worker, the manifest)
 * is revalidated on every use, so a deploy is picked up at once.
 */
export function staticWeb(root: string) {
  const index = join(root, 'index.html');
  const appPage = join(root, 'app.html');
  /** The page for an address that names no file: its prerendered page if the build has it, else the app. */
  const pageFor = async (relative: string): Promise<string> => {
    const prerendered = PRERENDERED_PAGES[relative.replace(/[/\\]+$/, '')];
    if (prerendered !== undefined && (await fileAt(join(root, prerendered)))) return join(root, prerendered);
    if (relative === '') return index;
    return (await fileAt(appPage)) ? appPage : index;
  };
  return async (ctx: Context, next: Next): Promise<unknown> => {
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
    const path = file ? candidate : await pageFor(relative);
    const info = file ?? (await fileAt(path));
    if (!info) return next();
    ctx.type = CONTENT_TYPES[extname(path)] ?? 'application/octet-stream';
    ctx.set('Cache-Control', file && relative.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    ctx.vary('Accept-Encoding');
    // Already compressed (or deliberately not): the API's JSON compression leaves it alone.
    ctx.compress = false;
    const accepts = acceptedEncodings(ctx.get('Accept-Encoding'));
    let sent = { path, size: info.size };
    for (const { encoding, suffix } of PRECOMPRESSED) {
      if (!accepts(encoding)) continue;
      const copy = await fileAt(path + suffix);
      if (!copy) continue;
      ctx.set('Content-Encoding', encoding);
      sent = { path: path + suffix, size: copy.size };
      break;
    }
    ctx.length = sent.size;
    ctx.body = ctx.method === 'HEAD' ? null : createReadStream(sent.path);
  };
}

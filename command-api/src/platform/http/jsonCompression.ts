import compress from 'koa-compress';
import type { Middleware } from 'koa';

/**
 * Below this many bytes an answer goes as it is: compressing a small JSON document saves a few
 * bytes of a packet at the cost of a zlib stream per request (issue 20).
 */
export const JSON_COMPRESSION_THRESHOLD_BYTES = 1400;

/**
 * Compresses the API's JSON answers above the threshold (Brotli at koa-compress's fast default
 * quality, else gzip, by the request's Accept-Encoding, with `Vary: Accept-Encoding`). Only JSON:
 * the web app's files are compressed at build time and served as they are (staticWeb), and
 * uploads are already-compressed images and PDFs.
 */
export function jsonCompression(): Middleware {
  return compress({
    threshold: JSON_COMPRESSION_THRESHOLD_BYTES,
    filter: (contentType) => /^application\/(.+\+)?json\b/.test(contentType),
    deflate: false,
    zstd: false,
  });
}

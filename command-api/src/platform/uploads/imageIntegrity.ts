import type { ImageContentType } from './imageType.js';

/**
 * Markup a browser or a server-side interpreter would act on. None belongs in a photo of an ID
 * card; finding one means the file is a polyglot — an image that is also a page or a script.
 */
const ACTIVE_CONTENT = /<\s*(script|html|svg|iframe|object|embed|body)\b|<\?php|javascript:/i;

/**
 * Whether an image that passed the signature check also carries something besides the image:
 * active markup anywhere in it, bytes after a PNG's IEND chunk, or a WebP whose RIFF size does
 * not cover the file. (Bytes after a JPEG's end marker are allowed: many phones store extra data
 * there; the markup scan still applies to them.)
 */
export function hasHiddenPayload(bytes: Buffer, contentType: ImageContentType): boolean {
  if (ACTIVE_CONTENT.test(bytes.toString('latin1'))) return true;
  if (contentType === 'image/png') return !endsAtIend(bytes);
  if (contentType === 'image/webp') return bytes.length < 12 || bytes.readUInt32LE(4) + 8 !== bytes.length;
  return false;
}

/** Walks the PNG chunks: the file must end exactly where its IEND chunk does. */
function endsAtIend(bytes: Buffer): boolean {
  let offset = 8;
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (end > bytes.length) return false;
    if (type === 'IEND') return end === bytes.length;
    offset = end;
  }
  return false;
}

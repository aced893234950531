import type { ImageContentType } from './imageType.js';

export interface Dimensions {
  width: number;
  height: number;
}

/** No identity document needs more; a "pixel flood" image (tiny file, gigapixel canvas) would exhaust whoever decodes it. */
export const MAX_IMAGE_PIXELS = 50_000_000;
export const MAX_IMAGE_SIDE = 12_000;

/**
 * Reads an image's declared size from its header without decoding it. Returns null when the
 * header cannot be read, which the upload treats as not an image.
 */
export function imageDimensions(bytes: Uint8Array, type: ImageContentType): Dimensions | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const has = (length: number) => bytes.length >= length;
  switch (type) {
    case 'image/png':
      // Signature (8), then the IHDR chunk: length (4), "IHDR" (4), width (4), height (4).
      if (!has(24) || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return null;
      return { width: view.getUint32(16), height: view.getUint32(20) };
    case 'image/webp': {
      if (!has(30)) return null;
      const chunk = String.fromCharCode(...bytes.subarray(12, 16));
      if (chunk === 'VP8X') return { width: 1 + (view.getUint32(24, true) & 0xffffff), height: 1 + (view.getUint32(27, true) & 0xffffff) };
      if (chunk === 'VP8L') {
        const bits = view.getUint32(21, true);
        return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
      }
      if (chunk === 'VP8 ') return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
      return null;
    }
    case 'image/jpeg': {
      // Walk the segments to the first start-of-frame marker, which carries the size.
      let offset = 2;
      while (offset + 9 < bytes.length) {
        if (bytes[offset] !== 0xff) return null;
        const marker = bytes[offset + 1];
        if (marker === 0xff) {
          offset += 1;
          continue;
        }
        const length = view.getUint16(offset + 2);
        const isStartOfFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
        if (isStartOfFrame) return { height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) };
        offset += 2 + length;
      }
      return null;
    }
  }
}

export function isAcceptableSize({ width, height }: Dimensions): boolean {
  return width > 0 && height > 0 && width <= MAX_IMAGE_SIDE && height <= MAX_IMAGE_SIDE && width * height <= MAX_IMAGE_PIXELS;
}

import { deflateSync } from 'node:zlib';
import { chunk, pngImage } from '../images/png.js';

export { pngImage };

/** A PNG whose header declares a huge canvas while the file stays tiny: a decompression ("pixel flood") bomb. */
export function pixelFloodPng(width = 100_000, height = 100_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.alloc(1024))), chunk('IEND', Buffer.alloc(0))]);
}

/** A valid PNG carrying `text` in a tEXt chunk before its image data (where a polyglot hides a payload). */
export function pngWithText(text: string): Buffer {
  const plain = pngImage();
  const signatureAndHeader = plain.subarray(0, 8 + 25);
  return Buffer.concat([signatureAndHeader, chunk('tEXt', Buffer.from(`Comment\0${text}`, 'latin1')), plain.subarray(8 + 25)]);
}

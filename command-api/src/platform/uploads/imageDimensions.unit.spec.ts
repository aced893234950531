import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { imageDimensions, isAcceptableSize } from './imageDimensions.js';
import { detectImageType } from './imageType.js';

function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'ascii');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr, deflateSync(Buffer.alloc(10))]);
}

function jpegHeader(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof0 = Buffer.alloc(19);
  sof0.writeUInt16BE(0xffc0, 0);
  sof0.writeUInt16BE(17, 2);
  sof0[4] = 8;
  sof0.writeUInt16BE(height, 5);
  sof0.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof0]);
}

function webpLossless(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(30);
  bytes.write('RIFF', 0, 'ascii');
  bytes.writeUInt32LE(22, 4);
  bytes.write('WEBPVP8L', 8, 'ascii');
  bytes.writeUInt32LE(9, 16);
  bytes[20] = 0x2f;
  bytes.writeUInt32LE((width - 1) | ((height - 1) << 14), 21);
  return bytes;
}

describe('image headers', () => {
  it('reads the declared size of PNG, JPEG and WebP without decoding', () => {
    expect(imageDimensions(pngHeader(640, 480), 'image/png')).toEqual({ width: 640, height: 480 });
    expect(imageDimensions(jpegHeader(1024, 768), 'image/jpeg')).toEqual({ width: 1024, height: 768 });
    expect(imageDimensions(webpLossless(300, 200), 'image/webp')).toEqual({ width: 300, height: 200 });
    expect(detectImageType(webpLossless(300, 200))).toBe('image/webp');
  });

  it('refuses a pixel flood: a small file declaring a gigapixel canvas', () => {
    const flood = imageDimensions(pngHeader(100_000, 100_000), 'image/png')!;
    expect(isAcceptableSize(flood)).toBe(false);
    expect(isAcceptableSize({ width: 8000, height: 8000 })).toBe(false);
    expect(isAcceptableSize({ width: 4000, height: 3000 })).toBe(true);
  });

  it('gives up on a truncated header rather than guessing', () => {
    expect(imageDimensions(pngHeader(10, 10).subarray(0, 20), 'image/png')).toBeNull();
    expect(imageDimensions(Buffer.from([0xff, 0xd8, 0xff]), 'image/jpeg')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { pngImage } from '../../../../cli/src/testing/images.js';
import { hasHiddenPayload } from './imageIntegrity.js';

function webp(payload: Buffer, declaredExtra = 0): Buffer {
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(4 + payload.length + declaredExtra, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, payload]);
}

describe('hidden payloads in images', () => {
  it('passes a plain PNG, a JPEG with a phone’s trailer, and a WebP whose RIFF size covers it', () => {
    expect(hasHiddenPayload(pngImage(), 'image/png')).toBe(false);
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 7), Buffer.from([0xff, 0xd9]), Buffer.from('SEFT trailer data')]);
    expect(hasHiddenPayload(jpeg, 'image/jpeg')).toBe(false);
    expect(hasHiddenPayload(webp(Buffer.alloc(20, 1)), 'image/webp')).toBe(false);
  });

  it('finds bytes after a PNG’s IEND, a truncated PNG, and a WebP longer than its RIFF size', () => {
    expect(hasHiddenPayload(Buffer.concat([pngImage(), Buffer.from('PK\u0003\u0004zip')]), 'image/png')).toBe(true);
    expect(hasHiddenPayload(pngImage().subarray(0, 40), 'image/png')).toBe(true);
    expect(hasHiddenPayload(Buffer.concat([webp(Buffer.alloc(20, 1)), Buffer.from('extra')]), 'image/webp')).toBe(true);
  });

  it('finds active markup anywhere, in any letter case', () => {
    for (const markup of ['<script>alert(1)</script>', '<SVG onload=x>', '< html>', '<?php system($_GET[0]); ?>', 'JavaScript:alert(1)']) {
      const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xfe]), Buffer.from(markup, 'latin1'), Buffer.from([0xff, 0xd9])]);
      expect(hasHiddenPayload(jpeg, 'image/jpeg')).toBe(true);
    }
  });
});

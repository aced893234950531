import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../../../cli/src/testing/testSystem.js';
import { registerBorrower, type Borrower } from '../../../cli/src/testing/borrowers.js';
import { pixelFloodPng, pngImage, pngWithText } from '../../../cli/src/testing/images.js';
import { reportFigure } from '../support/figures.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const LIMIT = 8 * 1024 * 1024;

let system: TestSystem;
let owner: Borrower;
let stranger: Borrower;
beforeAll(async () => {
  system = await startTestSystem();
  owner = await registerBorrower(system, 'Maria Santos');
  stranger = await registerBorrower(system, 'Pedro Reyes');
});
afterAll(() => system?.stop());

/** Bytes starting like a PNG, padded to `size`: big enough to test the limit, never a real image. */
function pngSizedExactly(size: number): Buffer {
  const bytes = Buffer.alloc(size, 0);
  pngImage().copy(bytes);
  return bytes;
}

const SVG_WITH_SCRIPT = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>fetch("/api/user/profile")</script></svg>';

const ATTACKS: { name: string; file: { bytes: Uint8Array; name: string; type: string }; status: number }[] = [
  { name: 'a script renamed .png', file: { bytes: Buffer.from('#!/bin/sh\nrm -rf /\n'), name: 'photo.png', type: 'image/png' }, status: 415 },
  { name: 'HTML declared as JPEG', file: { bytes: Buffer.from('<html><script>alert(1)</script></html>'), name: 'id.jpg', type: 'image/jpeg' }, status: 415 },
  { name: 'an SVG with a script', file: { bytes: Buffer.from(SVG_WITH_SCRIPT), name: 'id.svg', type: 'image/svg+xml' }, status: 415 },
  { name: 'a PNG with HTML appended (polyglot)', file: { bytes: Buffer.concat([pngImage(), Buffer.from('<html><script>alert(document.cookie)</script></html>')]), name: 'id.png', type: 'image/png' }, status: 415 },
  { name: 'a PNG with a ZIP appended (polyglot)', file: { bytes: Buffer.concat([pngImage(), Buffer.from('PK\u0003\u0004\u0014\u0000payload.jar')]), name: 'id.png', type: 'image/png' }, status: 415 },
  { name: 'a PNG with a script in a text chunk (polyglot)', file: { bytes: pngWithText('<script>alert(1)</script>'), name: 'id.png', type: 'image/png' }, status: 415 },
  {
    name: 'a JPEG with PHP in a comment (polyglot)',
    file: { bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xfe, 0x00, 0x20]), Buffer.from('<?php system($_GET["c"]); ?>'), Buffer.from([0xff, 0xd9])]), name: 'id.jpg', type: 'image/jpeg' },
    status: 415,
  },
  { name: 'one byte over 8 MB', file: { bytes: pngSizedExactly(LIMIT + 1), name: 'big.png', type: 'image/png' }, status: 413 },
  { name: 'a pixel flood (100,000 × 100,000 declared)', file: { bytes: pixelFloodPng(), name: 'flood.png', type: 'image/png' }, status: 422 },
  { name: 'a ../ name', file: { bytes: pngImage(), name: '../../../../tmp/honeylend-escape.png', type: 'image/png' }, status: 400 },
  { name: 'an absolute path name', file: { bytes: pngImage(), name: '/etc/passwd', type: 'image/png' }, status: 400 },
];

describe('uploads', () => {
  it('refuses every hostile file with a JSON error and stores nothing, and keeps a member’s document from others (figure: refused / tried)', async () => {
    const before = readdirSync(system.uploadDir);
    const notRefused: string[] = [];
    let tried = 0;
    for (const attack of ATTACKS) {
      const res = await system.upload('/api/upload', attack.file, owner.token);
      tried += 1;
      if (res.status !== attack.status || typeof res.body?.message !== 'string') notRefused.push(`${attack.name}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(notRefused).toEqual([]);
    expect(readdirSync(system.uploadDir)).toEqual(before);

    // The owner's real document: stored under a random id, never under the name sent.
    const accepted = await system.upload('/api/upload', { bytes: pngImage(), name: 'my-id-front.png', type: 'image/png' }, owner.token);
    expect(accepted.status).toBe(201);
    const stored = readdirSync(system.uploadDir).filter((name) => !before.includes(name));
    expect(stored).toEqual([accepted.body.fileId]);
    expect(stored[0]).toMatch(UUID);

    // Someone else's document: by token, anonymously, or by a URL with a forged or stale signature.
    const fileId = accepted.body.fileId as string;
    const signed = new URL(accepted.body.url, system.baseUrl);
    const forgedSignature = new URL(signed);
    forgedSignature.searchParams.set('sig', '0'.repeat(signed.searchParams.get('sig')!.length));
    const stale = new URL(signed);
    stale.searchParams.set('expires', String(Number(signed.searchParams.get('expires')) + 3600));
    const reads: [string, Promise<{ status: number }>, number][] = [
      ['another member’s token', system.request('GET', `/api/files/${fileId}`, { token: stranger.token }), 403],
      ['no credentials', system.request('GET', `/api/files/${fileId}`), 401],
      ['a forged signature', system.request('GET', forgedSignature.pathname + forgedSignature.search), 401],
      ['an extended expiry', system.request('GET', stale.pathname + stale.search), 401],
      ['a path instead of an id', system.request('GET', `/api/files/..%2F..%2Fetc%2Fpasswd`, { token: owner.token }), 404],
    ];
    for (const [name, pending, status] of reads) {
      tried += 1;
      const res = await pending;
      if (res.status !== status) notRefused.push(`${name}: ${res.status}`);
    }
    expect((await system.request('GET', `/api/files/${fileId}`, { token: owner.token })).status).toBe(200);

    reportFigure({ check: '12 uploads', name: 'hostile uploads and reads refused / tried', value: `${tried - notRefused.length} / ${tried}`, target: 'all' });
    expect(notRefused).toEqual([]);
  });
});

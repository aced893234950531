import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonicalJson.js';
import { isSignedByTrustedKey, parseCheckpointFile, signCheckpoint } from './checkpoint.js';
import { GENESIS_HASH, contentDigest, eventHash, type HashedContent } from './eventHash.js';
import { parsePublicKey, parseSigningKey, publicKeyPem, publicKeyText } from './signingKey.js';

const event: HashedContent = {
  id: '0b7c6f1e-6c1a-4a8e-9a55-2f3c1d0e9b11',
  stream: 'member-5d9a3c1e-2b4f-4c6d-8e7f-0a1b2c3d4e5f',
  revision: 3,
  type: 'BalanceAdjusted',
  data: { reason: 'Goodwill credit ₱', amountCentavos: 125_050, memberId: '5d9a3c1e-2b4f-4c6d-8e7f-0a1b2c3d4e5f' },
  metadata: { ip: '203.0.113.7', actorId: 'admin-1' },
  createdAt: '2026-11-23T13:14:00.123Z',
};

describe('canonical JSON (RFC 8785)', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [1, { d: true, c: null }], é: 'x' })).toBe('{"a":[1,{"c":null,"d":true}],"b":1,"é":"x"}');
  });

  it('writes numbers in their shortest ECMAScript form and leaves undefined members out', () => {
    expect(canonicalJson({ n: 1e21, f: 0.1, z: -0, i: 125_050, u: undefined })).toBe('{"f":0.1,"i":125050,"n":1e+21,"z":0}');
  });

  it('refuses what JSON cannot hold faithfully', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/NaN/);
    expect(() => canonicalJson({ n: Number.POSITIVE_INFINITY })).toThrow(/Infinity/);
    expect(() => canonicalJson({ s: '\ud800' })).toThrow(/surrogate/);
  });
});

describe('the event hash (design §10)', () => {
  it('is SHA-256 of the domain, the position as 8 bytes, the previous hash and the digest of the canonical event', () => {
    const canonical =
      '{"createdAt":"2026-11-23T13:14:00.123Z","data":{"amountCentavos":125050,"memberId":"5d9a3c1e-2b4f-4c6d-8e7f-0a1b2c3d4e5f","reason":"Goodwill credit ₱"},' +
      '"id":"0b7c6f1e-6c1a-4a8e-9a55-2f3c1d0e9b11","metadata":{"actorId":"admin-1","ip":"203.0.113.7"},"revision":3,' +
      '"stream":"member-5d9a3c1e-2b4f-4c6d-8e7f-0a1b2c3d4e5f","type":"BalanceAdjusted"}';
    const digest = createHash('sha256').update(canonical, 'utf8').digest();
    expect(contentDigest(event)).toEqual(digest);
    const position = Buffer.from([0, 0, 0, 0, 0, 0, 0x01, 0x2c]);
    const expected = createHash('sha256').update('honeylend-event-v1').update(position).update(Buffer.alloc(32)).update(digest).digest('hex');
    expect(eventHash(300, GENESIS_HASH, event)).toBe(expected);
    // The format is fixed: this value must never change.
    expect(eventHash(300, GENESIS_HASH, event)).toBe('f8852a201d108b4036e34d0699e9195e1f3af0c3bd648606efad9a6ff8b1e8ca');
  });

  it('changes with one byte of the data, the position, the previous hash, or any field', () => {
    const base = eventHash(7, GENESIS_HASH, event);
    expect(eventHash(7, GENESIS_HASH, { ...event, data: { ...event.data, amountCentavos: 125_051 } })).not.toBe(base);
    expect(eventHash(8, GENESIS_HASH, event)).not.toBe(base);
    expect(eventHash(7, 'f'.repeat(64), event)).not.toBe(base);
    for (const field of ['id', 'stream', 'type', 'createdAt'] as const) expect(eventHash(7, GENESIS_HASH, { ...event, [field]: `${event[field]}x` })).not.toBe(base);
    expect(eventHash(7, GENESIS_HASH, { ...event, revision: 4 })).not.toBe(base);
    expect(eventHash(7, GENESIS_HASH, { ...event, metadata: { ...event.metadata, ip: '203.0.113.8' } })).not.toBe(base);
  });

  it('does not depend on the order of keys, as a database may reorder them', () => {
    const reordered = { ...event, data: { memberId: event.data.memberId, amountCentavos: 125_050, reason: 'Goodwill credit ₱' } };
    expect(eventHash(7, GENESIS_HASH, reordered)).toBe(eventHash(7, GENESIS_HASH, event));
  });
});

describe('signed checkpoints', () => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const trusted = [createPublicKey(privateKey)];
  const checkpoint = signCheckpoint(privateKey, { position: 10_000, hash: 'a'.repeat(64), time: '2026-11-23T13:00:00.000Z' });

  it('verifies with the trusted key, and not when the position, hash or time was changed or another key signed', () => {
    expect(isSignedByTrustedKey(checkpoint, trusted)).toBe(true);
    expect(isSignedByTrustedKey({ ...checkpoint, position: 10_001 }, trusted)).toBe(false);
    expect(isSignedByTrustedKey({ ...checkpoint, hash: 'b'.repeat(64) }, trusted)).toBe(false);
    expect(isSignedByTrustedKey({ ...checkpoint, time: '2026-11-23T13:00:01.000Z' }, trusted)).toBe(false);
    const other = generateKeyPairSync('ed25519').privateKey;
    expect(isSignedByTrustedKey(signCheckpoint(other, checkpoint), trusted)).toBe(false);
    expect(isSignedByTrustedKey({ ...signCheckpoint(other, checkpoint), publicKey: checkpoint.publicKey }, trusted)).toBe(false);
  });

  it('reads an exported file as NDJSON or a JSON array, and says which entry is malformed', () => {
    const exported = { ...checkpoint, recordedAt: 10_001 };
    expect(parseCheckpointFile(`${JSON.stringify(exported)}\n${JSON.stringify(checkpoint)}\n`)).toEqual([checkpoint, checkpoint]);
    expect(parseCheckpointFile(JSON.stringify([checkpoint]))).toEqual([checkpoint]);
    expect(() => parseCheckpointFile(`${JSON.stringify(checkpoint)}\n{"position":-1}`)).toThrow(/checkpoint 2 of the file/);
  });

  it('reads keys as PEM (with escaped newlines too) or base64 DER, and refuses keys of another kind', () => {
    const pem = String(privateKey.export({ format: 'pem', type: 'pkcs8' }));
    expect(publicKeyText(parseSigningKey(pem.replace(/\n/g, '\\n')))).toBe(checkpoint.publicKey);
    const der = (privateKey.export({ format: 'der', type: 'pkcs8' }) as Buffer).toString('base64');
    expect(publicKeyText(parseSigningKey(der))).toBe(checkpoint.publicKey);
    expect(publicKeyText(parsePublicKey(publicKeyPem(privateKey)))).toBe(checkpoint.publicKey);
    expect(publicKeyText(parsePublicKey(checkpoint.publicKey))).toBe(checkpoint.publicKey);
    const rsa = String(generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }));
    expect(() => parseSigningKey(rsa)).toThrow(/Ed25519/);
    expect(() => parseSigningKey('not a key')).toThrow(/AUDIT_SIGNING_KEY is not an Ed25519 private key/);
  });
});

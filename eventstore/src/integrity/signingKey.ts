import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The Ed25519 key that signs checkpoints (design §10): AUDIT_SIGNING_KEY in production, a key
 * generated once into the data directory in development. Verification trusts public keys only.
 */

export class SigningKeyError extends Error {
  override readonly name = 'SigningKeyError';
}

function assertEd25519(key: KeyObject, what: string): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519') throw new SigningKeyError(`${what} is a ${key.asymmetricKeyType ?? 'symmetric'} key; checkpoints are signed with Ed25519`);
  return key;
}

/** A PKCS#8 PEM (literal newlines or `\n` escapes, as environment variables often carry them), or the base64 of its DER. */
export function parseSigningKey(text: string): KeyObject {
  const trimmed = text.trim().replace(/\\n/g, '\n');
  try {
    const key = trimmed.startsWith('-----BEGIN') ? createPrivateKey(trimmed) : createPrivateKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'pkcs8' });
    return assertEd25519(key, 'AUDIT_SIGNING_KEY');
  } catch (error) {
    if (error instanceof SigningKeyError) throw error;
    throw new SigningKeyError('AUDIT_SIGNING_KEY is not an Ed25519 private key (PKCS#8 PEM, e.g. from `openssl genpkey -algorithm ed25519`, or its DER in base64)');
  }
}

/** An SPKI PEM, or the raw 32-byte key in base64url as checkpoints carry it. */
export function parsePublicKey(text: string): KeyObject {
  const trimmed = text.trim().replace(/\\n/g, '\n');
  try {
    const key = trimmed.startsWith('-----BEGIN') ? createPublicKey(trimmed) : createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: trimmed }, format: 'jwk' });
    return assertEd25519(key, 'the public key');
  } catch (error) {
    if (error instanceof SigningKeyError) throw error;
    throw new SigningKeyError('not an Ed25519 public key (SPKI PEM, or the raw key in base64url)');
  }
}

/**
 * The development key in `path`, made on first use (readable by its owner only). Two processes
 * starting at once both end up with the one that reached the disk first.
 */
export function loadOrCreateSigningKeyFile(path: string): KeyObject {
  try {
    return parseSigningKey(readFileSync(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const { privateKey } = generateKeyPairSync('ed25519');
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(path, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return parseSigningKey(readFileSync(path, 'utf8'));
}

/** The raw public key in base64url: what each checkpoint names as its signer. */
export function publicKeyText(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return String(publicKey.export({ format: 'jwk' }).x);
}

export function publicKeyPem(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return String(publicKey.export({ format: 'pem', type: 'spki' }));
}

/** SHA-256 of the raw public key, hex: short enough to read aloud and compare. */
export function publicKeyFingerprint(key: KeyObject): string {
  return createHash('sha256')
    .update(Buffer.from(publicKeyText(key), 'base64url'))
    .digest('hex');
}

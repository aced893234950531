import { publicKeyFingerprint, publicKeyPem, publicKeyText } from '@honeylend/eventstore';
import type { Config } from '../config.js';
import { auditSigningKey } from './signingKeys.js';

/** `lending audit public-key`: what an auditor keeps to check checkpoint signatures without the private key. */
export function publicKeyCommand(config: Config): void {
  const key = auditSigningKey(config);
  process.stdout.write(`${publicKeyPem(key).trimEnd()}\nraw (base64url, as checkpoints name their signer): ${publicKeyText(key)}\nSHA-256 fingerprint: ${publicKeyFingerprint(key)}\n`);
}

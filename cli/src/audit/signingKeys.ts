import { createPublicKey, type KeyObject } from 'node:crypto';
import { loadOrCreateSigningKeyFile } from '@honeylend/eventstore';
import type { Config } from '../config.js';

/** The key that signs checkpoints: AUDIT_SIGNING_KEY, or the development key file (made on first use). */
export function auditSigningKey(config: Config): KeyObject {
  return 'key' in config.auditSigning ? config.auditSigning.key : loadOrCreateSigningKeyFile(config.auditSigning.devKeyFile);
}

/** The public keys whose checkpoint signatures verification accepts. */
export function trustedAuditKeys(config: Config): KeyObject[] {
  return [createPublicKey(auditSigningKey(config))];
}

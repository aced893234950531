import { sign, verify, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { canonicalJson, publicKeyText } from '@honeylend/eventstore';

/**
 * A Honeylend backup: gzip-compressed NDJSON, one JSON object per line —
 *
 *   1. the header  { format: "honeylend-backup", version: 2, createdAt, adapter, headPosition }
 *   2. one line per event, in log order, exactly as the store recorded it: id, stream, revision,
 *      type, data, metadata, position, createdAt, and its link in the log's hash chain (design
 *      §10): prevHash and hash — stored by the SQL adapters, computed from $all for EventStoreDB
 *   3. the closing line { end: true, events, lastPosition, lastHash, sha256, signature, publicKey }:
 *      sha256 is the digest of every event line (with its newline) in order, lastHash the chain's
 *      last link, and signature an Ed25519 signature with the log's audit signing key over the
 *      header and the rest of the closing line. Someone without that key can change an event and
 *      recompute every hash and digest, but cannot sign the result.
 *
 * Optionally the whole gzip stream is encrypted (backupEncryption.ts). Money is integer centavos
 * inside events, so the JSON is exact.
 */
export const BACKUP_FORMAT = 'honeylend-backup';
export const BACKUP_VERSION = 2;
const SIGNATURE_DOMAIN = 'honeylend-backup-v2\n';

export const backupHeaderSchema = z.strictObject({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(BACKUP_VERSION),
  createdAt: z.iso.datetime(),
  /** The adapter the log was read from (pglite, postgres, esdb). */
  adapter: z.string(),
  /** The store's head when the backup began: the backup holds the log up to and including it. */
  headPosition: z.number().int().nonnegative(),
});
export type BackupHeader = z.infer<typeof backupHeaderSchema>;

const hashHex = z.string().regex(/^[0-9a-f]{64}$/, 'a hash is 64 lowercase hex digits');

/** An event line; its hashes are checked apart (a line without them is refused with its own reason). */
export const backupEventSchema = z.strictObject({
  id: z.uuid(),
  stream: z.string().min(1),
  revision: z.number().int().nonnegative(),
  type: z.string().min(1),
  data: z.record(z.string(), z.unknown()),
  metadata: z.record(z.string(), z.unknown()),
  position: z.number().int().positive(),
  createdAt: z.iso.datetime(),
  prevHash: hashHex.optional(),
  hash: hashHex.optional(),
});
export type BackupEvent = z.infer<typeof backupEventSchema>;

export const backupTrailerSchema = z.strictObject({
  end: z.literal(true),
  events: z.number().int().nonnegative(),
  lastPosition: z.number().int().nonnegative(),
  /** The chain's link at lastPosition (64 zeros for an empty log). */
  lastHash: hashHex,
  sha256: hashHex,
  signature: z.string().regex(/^[A-Za-z0-9_-]{86}$/, 'an Ed25519 signature in base64url'),
  publicKey: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'an Ed25519 public key in base64url'),
});
export type BackupTrailer = z.infer<typeof backupTrailerSchema>;
export type BackupSummary = Omit<BackupTrailer, 'end' | 'signature' | 'publicKey'>;

function signedBytes(header: BackupHeader, summary: BackupSummary): Buffer {
  const { events, lastPosition, lastHash, sha256 } = summary;
  return Buffer.from(SIGNATURE_DOMAIN + canonicalJson({ header, events, lastPosition, lastHash, sha256 }), 'utf8');
}

/** The closing line, signed with the audit signing key. */
export function signedTrailer(signingKey: KeyObject, header: BackupHeader, summary: BackupSummary): BackupTrailer {
  const signature = sign(null, signedBytes(header, summary), signingKey).toString('base64url');
  return { end: true, ...summary, signature, publicKey: publicKeyText(signingKey) };
}

/** Whether one of the trusted keys signed exactly this header and closing line. */
export function isTrailerSignedBy(trustedKeys: readonly KeyObject[], header: BackupHeader, trailer: BackupTrailer): 'signed' | 'untrusted-key' | 'bad-signature' {
  const key = trustedKeys.find((trusted) => publicKeyText(trusted) === trailer.publicKey);
  if (!key) return 'untrusted-key';
  try {
    return verify(null, signedBytes(header, trailer), key, Buffer.from(trailer.signature, 'base64url')) ? 'signed' : 'bad-signature';
  } catch {
    return 'bad-signature';
  }
}

/** A backup that cannot be trusted: where, and why. Nothing is restored from it. */
export class BackupInvalid extends Error {
  override readonly name = 'BackupInvalid';
}

import { z } from 'zod';

/**
 * A Honeylend backup: gzip-compressed NDJSON, one JSON object per line —
 *
 *   1. the header  { format: "honeylend-backup", version: 1, createdAt, adapter, headPosition }
 *   2. one line per event, in log order, exactly as the store recorded it: id, stream, revision,
 *      type, data, metadata, position, createdAt, and — when the store keeps the log hash-chained
 *      (design §10) — its prevHash and hash
 *   3. the trailer { end: true, events, lastPosition, sha256 }, sha256 being the digest of every
 *      event line (with its newline) in order, so a cut or edited file is found before anything is
 *      written.
 *
 * Money is integer centavos inside events, so the JSON is exact.
 */
export const BACKUP_FORMAT = 'honeylend-backup';
export const BACKUP_VERSION = 1;

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
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type BackupTrailer = z.infer<typeof backupTrailerSchema>;

/** A backup that cannot be trusted: where, and why. Nothing is restored from it. */
export class BackupInvalid extends Error {
  override readonly name = 'BackupInvalid';
}

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { BackupInvalid } from './backupFormat.js';

/**
 * An encrypted backup (BACKUP_ENCRYPTION_KEY): the gzip stream sealed with AES-256-GCM in chunks,
 * so a reader never uses a byte before its chunk's tag has proved it:
 *
 *   MAGIC (8 bytes) ‖ nonce prefix (8 random bytes)
 *   then chunks of  final flag (1 byte) ‖ length n (4 bytes, big-endian) ‖ n bytes of ciphertext ‖ tag (16 bytes)
 *
 * Each chunk's IV is the nonce prefix and the chunk's number (4 bytes); its additional data is the
 * magic, the prefix and its flag, so chunks can be neither reordered, moved between files, nor cut
 * off after the last one (the file must end with a chunk flagged final, and nothing after it).
 */
export const ENCRYPTED_BACKUP_MAGIC = Buffer.from('HLBKAES1', 'ascii');
const PREFIX_BYTES = 8;
const CHUNK_BYTES = 64 * 1024;
const TAG_BYTES = 16;
const CHUNK_HEAD_BYTES = 5;

/** BACKUP_ENCRYPTION_KEY: 32 bytes, as 64 hex digits or base64 (standard or URL-safe). */
export function parseBackupEncryptionKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed) ? Buffer.from(trimmed, 'base64') : null;
  if (key?.length !== 32) throw new Error('BACKUP_ENCRYPTION_KEY must be 32 bytes, as 64 hex digits or base64 (openssl rand -base64 32)');
  return key;
}

function ivFor(prefix: Buffer, chunk: number): Buffer {
  const iv = Buffer.alloc(12);
  prefix.copy(iv, 0);
  iv.writeUInt32BE(chunk, PREFIX_BYTES);
  return iv;
}

function additionalData(prefix: Buffer, final: boolean): Buffer {
  return Buffer.concat([ENCRYPTED_BACKUP_MAGIC, prefix, Buffer.from([final ? 1 : 0])]);
}

/** Seals the bytes of `source` (a pipeline stage). */
export function encryptBackup(key: Buffer): (source: AsyncIterable<Buffer>) => AsyncGenerator<Buffer> {
  return async function* (source) {
    const prefix = randomBytes(PREFIX_BYTES);
    yield Buffer.concat([ENCRYPTED_BACKUP_MAGIC, prefix]);
    let chunk = 0;
    let pending = Buffer.alloc(0);
    const seal = (plain: Buffer, final: boolean): Buffer => {
      const cipher = createCipheriv('aes-256-gcm', key, ivFor(prefix, chunk++));
      cipher.setAAD(additionalData(prefix, final));
      const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
      const head = Buffer.alloc(CHUNK_HEAD_BYTES);
      head.writeUInt8(final ? 1 : 0, 0);
      head.writeUInt32BE(sealed.length, 1);
      return Buffer.concat([head, sealed, cipher.getAuthTag()]);
    };
    for await (const piece of source) {
      pending = Buffer.concat([pending, piece]);
      while (pending.length > CHUNK_BYTES) {
        yield seal(pending.subarray(0, CHUNK_BYTES), false);
        pending = pending.subarray(CHUNK_BYTES);
      }
    }
    yield seal(pending, true);
  };
}

const refused = (chunk: number) => new BackupInvalid(`the backup does not decrypt with BACKUP_ENCRYPTION_KEY (chunk ${chunk + 1}): it was encrypted with another key, or the file was changed`);

/** Opens what encryptBackup sealed, yielding each chunk only once its tag holds. */
export async function* decryptBackup(source: AsyncIterable<Buffer>, key: Buffer): AsyncGenerator<Buffer> {
  let buffered = Buffer.alloc(0);
  let prefix: Buffer | null = null;
  let chunk = 0;
  let ended = false;
  for await (const piece of source) {
    buffered = Buffer.concat([buffered, piece]);
    if (!prefix) {
      if (buffered.length < ENCRYPTED_BACKUP_MAGIC.length + PREFIX_BYTES) continue;
      if (!buffered.subarray(0, ENCRYPTED_BACKUP_MAGIC.length).equals(ENCRYPTED_BACKUP_MAGIC)) throw new BackupInvalid('not an encrypted Honeylend backup');
      prefix = Buffer.from(buffered.subarray(ENCRYPTED_BACKUP_MAGIC.length, ENCRYPTED_BACKUP_MAGIC.length + PREFIX_BYTES));
      buffered = buffered.subarray(ENCRYPTED_BACKUP_MAGIC.length + PREFIX_BYTES);
    }
    while (buffered.length >= CHUNK_HEAD_BYTES) {
      if (ended) throw new BackupInvalid('the encrypted backup goes on after its last chunk: the file was changed');
      const flag = buffered.readUInt8(0);
      const length = buffered.readUInt32BE(1);
      if (flag > 1 || length > CHUNK_BYTES) throw refused(chunk);
      const size = CHUNK_HEAD_BYTES + length + TAG_BYTES;
      if (buffered.length < size) break;
      const decipher = createDecipheriv('aes-256-gcm', key, ivFor(prefix, chunk));
      decipher.setAAD(additionalData(prefix, flag === 1));
      decipher.setAuthTag(buffered.subarray(CHUNK_HEAD_BYTES + length, size));
      let plain: Buffer;
      try {
        plain = Buffer.concat([decipher.update(buffered.subarray(CHUNK_HEAD_BYTES, CHUNK_HEAD_BYTES + length)), decipher.final()]);
      } catch {
        throw refused(chunk);
      }
      buffered = buffered.subarray(size);
      chunk++;
      ended = flag === 1;
      yield plain;
    }
  }
  if (!ended || buffered.length > 0) throw new BackupInvalid('the encrypted backup ends before its last chunk: it was cut short or changed');
}

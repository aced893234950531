import { createHash, type KeyObject } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { chainPages, GENESIS_HASH, type ChainedEvent, type EventStore } from '@honeylend/eventstore';
import { BACKUP_FORMAT, BACKUP_VERSION, signedTrailer, type BackupEvent, type BackupHeader } from './backupFormat.js';
import { encryptBackup } from './backupEncryption.js';

const PAGE = 2_000;

export interface BackupResult {
  events: number;
  lastPosition: number;
  bytes: number;
  seconds: number;
  /** Sealed with BACKUP_ENCRYPTION_KEY. */
  encrypted: boolean;
}

export interface BackupOptions {
  /** The audit signing key (AUDIT_SIGNING_KEY): signs the closing line. */
  signingKey: KeyObject;
  /** BACKUP_ENCRYPTION_KEY: the file is sealed with AES-256-GCM (backupEncryption.ts); null: plain gzip. */
  encryptionKey?: Buffer | null;
  now?: () => Date;
  onProgress?: (events: number, position: number, head: number) => void;
}

function toBackupEvent(event: ChainedEvent): BackupEvent {
  return {
    id: event.id,
    stream: event.stream,
    revision: event.revision,
    type: event.type,
    data: event.data,
    metadata: event.metadata,
    position: event.position,
    createdAt: event.createdAt,
    prevHash: event.prevHash,
    hash: event.hash,
  };
}

/**
 * `lending backup FILE`: the whole log as of the moment it starts, while the system keeps running.
 * The store's head is read first and the log copied up to it: every store shows readers a
 * prefix of the log with no gap, so the copy is the log exactly as it stood at that position,
 * whatever is appended meanwhile. Every event carries its link in the hash chain (as stored, or
 * computed where the store keeps none) and the closing line is signed with the audit signing key.
 * Written to FILE.partial and renamed at the end, so FILE is either a complete backup or absent.
 */
export async function writeBackup(store: EventStore, file: string, { signingKey, encryptionKey = null, now = () => new Date(), onProgress }: BackupOptions): Promise<BackupResult> {
  const started = Date.now();
  const headPosition = await store.headPosition();
  const digest = createHash('sha256');
  let events = 0;
  let lastPosition = 0;
  let lastHash = GENESIS_HASH;

  async function* lines(): AsyncGenerator<string> {
    const header: BackupHeader = { format: BACKUP_FORMAT, version: BACKUP_VERSION, createdAt: now().toISOString(), adapter: store.kind, headPosition };
    yield `${JSON.stringify(header)}\n`;
    if (headPosition > 0) {
      for await (const page of chainPages(store, { from: 0, to: headPosition, pageSize: PAGE })) {
        for (const event of page) {
          const line = `${JSON.stringify(toBackupEvent(event))}\n`;
          digest.update(line);
          events++;
          lastPosition = event.position;
          lastHash = event.hash;
          yield line;
        }
        onProgress?.(events, lastPosition, headPosition);
      }
    }
    yield `${JSON.stringify(signedTrailer(signingKey, header, { events, lastPosition, lastHash, sha256: digest.digest('hex') }))}\n`;
  }

  const partial = `${file}.partial`;
  try {
    if (encryptionKey) await pipeline(Readable.from(lines()), createGzip(), encryptBackup(encryptionKey), createWriteStream(partial, { mode: 0o600 }));
    else await pipeline(Readable.from(lines()), createGzip(), createWriteStream(partial, { mode: 0o600 }));
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { events, lastPosition, bytes: (await stat(file)).size, seconds: (Date.now() - started) / 1000, encrypted: encryptionKey !== null };
}

import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { EventStore, RecordedEvent } from '@honeylend/eventstore';
import { BACKUP_FORMAT, BACKUP_VERSION, type BackupEvent, type BackupHeader, type BackupTrailer } from './backupFormat.js';

const PAGE = 2_000;

/** A recorded event as the store answers it, with its chain link where the store keeps one. */
type MaybeChained = RecordedEvent & { prevHash?: unknown; hash?: unknown };
type ChainReading = { readChain?(options: { from: number; limit: number }): Promise<MaybeChained[]> };

export interface BackupResult {
  events: number;
  lastPosition: number;
  bytes: number;
  seconds: number;
  /** Whether each event carries its hash (the store keeps the log hash-chained). */
  chained: boolean;
}

function toBackupEvent(event: MaybeChained): BackupEvent {
  const line: BackupEvent = {
    id: event.id,
    stream: event.stream,
    revision: event.revision,
    type: event.type,
    data: event.data,
    metadata: event.metadata,
    position: event.position,
    createdAt: event.createdAt,
  };
  if (typeof event.hash === 'string' && typeof event.prevHash === 'string') {
    line.prevHash = event.prevHash;
    line.hash = event.hash;
  }
  return line;
}

/**
 * `lending backup FILE`: the whole log as of the moment it starts, while the system keeps running.
 * The store's head is read first and the log copied up to it: every store shows readers a
 * prefix of the log with no gap, so the copy is the log exactly as it stood at that position,
 * whatever is appended meanwhile. Written to FILE.partial and renamed at the end, so FILE is
 * either a complete backup or absent.
 */
export async function writeBackup(
  store: EventStore,
  file: string,
  { now = () => new Date(), onProgress }: { now?: () => Date; onProgress?: (events: number, position: number, head: number) => void } = {},
): Promise<BackupResult> {
  const started = Date.now();
  const headPosition = await store.headPosition();
  const chain = (store as EventStore & ChainReading).readChain?.bind(store);
  const read = (from: number): Promise<MaybeChained[]> => (chain ? chain({ from, limit: PAGE }) : store.readAll({ from, limit: PAGE }));
  const digest = createHash('sha256');
  let events = 0;
  let lastPosition = 0;
  let chained = false;

  async function* lines(): AsyncGenerator<string> {
    const header: BackupHeader = { format: BACKUP_FORMAT, version: BACKUP_VERSION, createdAt: now().toISOString(), adapter: store.kind, headPosition };
    yield `${JSON.stringify(header)}\n`;
    let from = 0;
    while (from < headPosition) {
      const page = await read(from);
      if (page.length === 0) break;
      for (const event of page) {
        if (event.position > headPosition) break;
        const line = `${JSON.stringify(toBackupEvent(event))}\n`;
        digest.update(line);
        if (events === 0) chained = typeof event.hash === 'string';
        events++;
        lastPosition = event.position;
        yield line;
      }
      from = page[page.length - 1].position;
      onProgress?.(events, lastPosition, headPosition);
    }
    const trailer: BackupTrailer = { end: true, events, lastPosition, sha256: digest.digest('hex') };
    yield `${JSON.stringify(trailer)}\n`;
  }

  const partial = `${file}.partial`;
  try {
    await pipeline(Readable.from(lines()), createGzip(), createWriteStream(partial, { mode: 0o600 }));
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { events, lastPosition, bytes: (await stat(file)).size, seconds: (Date.now() - started) / 1000, chained };
}

import { createHash, type KeyObject } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { isDeepStrictEqual } from 'node:util';
import { createGunzip } from 'node:zlib';
import type { z } from 'zod';
import { CHECKPOINT_EVENT_TYPE, GENESIS_HASH, eventHash, isSignedByTrustedKey, type Checkpoint, type EventStore, type NewEvent, type RecordedEvent } from '@honeylend/eventstore';
import { eventDataSchemas } from '@honeylend/contracts';
import { BackupInvalid, backupEventSchema, backupHeaderSchema, backupTrailerSchema, isTrailerSignedBy, type BackupEvent, type BackupHeader } from './backupFormat.js';
import { ENCRYPTED_BACKUP_MAGIC, decryptBackup } from './backupEncryption.js';

/** Events per append (one stream's consecutive events) and appends in flight at once. */
const MAX_APPEND_EVENTS = 500;
const APPENDS_IN_FLIGHT = 32;

type Progress = (events: number, position: number, head: number) => void;

/** What a backup is checked against: the audit keys that sign it, and the key it may be sealed with. */
export interface BackupKeys {
  /** Public keys whose signatures count (the audit signing key's): on the closing line and on every checkpoint inside. */
  trustedKeys: readonly KeyObject[];
  /** BACKUP_ENCRYPTION_KEY, for an encrypted backup. */
  encryptionKey?: Buffer | null;
}

interface Line {
  number: number;
  text: string;
}

async function isEncrypted(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(ENCRYPTED_BACKUP_MAGIC.length), 0, ENCRYPTED_BACKUP_MAGIC.length, 0);
    return bytesRead === ENCRYPTED_BACKUP_MAGIC.length && buffer.equals(ENCRYPTED_BACKUP_MAGIC);
  } finally {
    await handle.close();
  }
}

async function* linesOf(file: string, encryptionKey: Buffer | null): AsyncGenerator<Line> {
  const encrypted = await isEncrypted(file);
  if (encrypted && !encryptionKey) throw new BackupInvalid(`${file} is encrypted: set BACKUP_ENCRYPTION_KEY to the key it was written with`);
  const input = createReadStream(file);
  const gzipped = encrypted ? Readable.from(decryptBackup(input, encryptionKey!)) : input;
  const gunzip = createGunzip();
  gzipped.on('error', (error: Error) => gunzip.destroy(error));
  let number = 0;
  try {
    for await (const text of createInterface({ input: gzipped.pipe(gunzip), crlfDelay: Infinity })) {
      number++;
      yield { number, text };
    }
  } catch (error) {
    if (error instanceof BackupInvalid) throw error;
    throw new BackupInvalid(`${file} is not a readable gzip file (${error instanceof Error ? error.message : String(error)})`);
  } finally {
    gzipped.destroy();
    input.destroy();
  }
}

function parsed<S extends z.ZodType>(schema: S, line: Line, what: string): z.infer<S> {
  let value: unknown;
  try {
    value = JSON.parse(line.text);
  } catch {
    throw new BackupInvalid(`line ${line.number}: not JSON`);
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new BackupInvalid(`line ${line.number}: not ${what} (${issue.path.join('.') || 'line'}: ${issue.message})`);
  }
  return result.data;
}

function parsedHeader(line: Line): BackupHeader {
  const version = (() => {
    try {
      return (JSON.parse(line.text) as { version?: unknown }).version;
    } catch {
      return undefined;
    }
  })();
  if (version === 1) {
    throw new BackupInvalid('this is a version 1 backup: its hashes are optional and its closing line is not signed, so it cannot be proved unchanged; take a new backup with lending backup');
  }
  return parsed(backupHeaderSchema, line, 'the header of a Honeylend backup (format honeylend-backup, version 2)');
}

/** The backup's events in order, each checked as it is read; the header first. */
async function* backupEvents(file: string, encryptionKey: Buffer | null): AsyncGenerator<{ header: BackupHeader } | { event: BackupEvent; line: number }, { events: number; sha256: string; trailer: unknown }> {
  const digest = createHash('sha256');
  let header: BackupHeader | null = null;
  let trailer: Line | null = null;
  let events = 0;
  for await (const line of linesOf(file, encryptionKey)) {
    if (trailer) throw new BackupInvalid(`line ${line.number}: more lines after the end of the backup`);
    if (!header) {
      header = parsedHeader(line);
      yield { header };
      continue;
    }
    if (line.text.startsWith('{"end":')) {
      trailer = line;
      continue;
    }
    const event = parsed(backupEventSchema, line, 'an event');
    digest.update(`${line.text}\n`);
    events++;
    yield { event, line: line.number };
  }
  if (!header) throw new BackupInvalid(`${file} is empty`);
  if (!trailer) throw new BackupInvalid(`the backup ends without its closing line: it was cut short`);
  return { events, sha256: digest.digest('hex'), trailer: parsed(backupTrailerSchema, trailer, 'the closing line') };
}

/** The signed checkpoints the backup's log holds (AuditCheckpointSigned events), by the position they sign. */
async function checkpointsIn(file: string, encryptionKey: Buffer | null): Promise<Map<number, { checkpoint: Checkpoint; recordedAt: number }[]>> {
  const found = new Map<number, { checkpoint: Checkpoint; recordedAt: number }[]>();
  for await (const item of backupEvents(file, encryptionKey)) {
    if (!('event' in item) || item.event.type !== CHECKPOINT_EVENT_TYPE) continue;
    const checkpoint = eventDataSchemas.AuditCheckpointSigned.safeParse(item.event.data);
    if (!checkpoint.success) throw new BackupInvalid(`line ${item.line} (position ${item.event.position}): a checkpoint that is not a checkpoint`);
    found.set(checkpoint.data.position, [...(found.get(checkpoint.data.position) ?? []), { checkpoint: checkpoint.data, recordedAt: item.event.position }]);
  }
  return found;
}

export interface VerifiedBackup {
  header: BackupHeader;
  events: number;
  lastPosition: number;
  /** Signed checkpoints found inside and checked against the chain. */
  checkpoints: number;
}

/**
 * Reads the whole backup and refuses it at the first thing wrong, naming the line: a line that is
 * not an event, positions out of order, a stream whose revisions skip or repeat, an event without
 * its hashes, an event that does not match its hash (recomputed as design §10 computes it), a
 * chain that does not link (each event's prevHash must be the hash before it, the first one's the
 * genesis hash), a signed checkpoint inside the log that a trusted key did not sign or that the
 * chain does not pass through, a count, digest or last hash that differs from the closing line's,
 * or a closing line that a trusted key did not sign. Someone who changes an event and recomputes
 * every hash and digest still fails the signature they cannot make.
 */
export async function verifyBackup(file: string, keys: BackupKeys, onProgress?: Progress): Promise<VerifiedBackup> {
  const encryptionKey = keys.encryptionKey ?? null;
  const signed = await checkpointsIn(file, encryptionKey);
  const reading = backupEvents(file, encryptionKey);
  let header: BackupHeader | undefined;
  const nextRevision = new Map<string, number>();
  let lastPosition = 0;
  let previousHash = GENESIS_HASH;
  let count = 0;
  let checkpoints = 0;
  for (;;) {
    const next = await reading.next();
    if (next.done) {
      const { events, sha256, trailer } = next.value;
      const end = trailer as z.infer<typeof backupTrailerSchema>;
      if (end.events !== events || end.lastPosition !== lastPosition) {
        throw new BackupInvalid(`the closing line counts ${end.events} events up to position ${end.lastPosition}, the file holds ${events} up to ${lastPosition}`);
      }
      if (end.sha256 !== sha256 || end.lastHash !== previousHash) throw new BackupInvalid('the events do not match the digest on the closing line: the file was changed after it was written');
      if (lastPosition > header!.headPosition) throw new BackupInvalid(`an event at position ${lastPosition} is past the head the backup was taken at (${header!.headPosition})`);
      const signature = isTrailerSignedBy(keys.trustedKeys, header!, end);
      if (signature === 'untrusted-key') {
        throw new BackupInvalid('the closing line is not signed with the audit signing key (AUDIT_SIGNING_KEY): the backup was written by another system, or rewritten by someone without the key');
      }
      if (signature === 'bad-signature') throw new BackupInvalid("the closing line's signature does not match the backup: the file was changed after it was written");
      // Every checkpoint met its position on the way; one left names an event the backup does not hold.
      const [unreached] = signed.keys();
      if (unreached !== undefined) throw new BackupInvalid(`a signed checkpoint names position ${unreached}, which the backup does not hold`);
      return { header: header!, events, lastPosition, checkpoints };
    }
    if ('header' in next.value) {
      header = next.value.header;
      continue;
    }
    const { event, line } = next.value;
    const at = `line ${line} (position ${event.position}, ${event.stream} #${event.revision})`;
    if (event.position <= lastPosition) throw new BackupInvalid(`${at}: positions must increase, and the one before was ${lastPosition}`);
    const expected = nextRevision.get(event.stream) ?? 0;
    if (event.revision !== expected) throw new BackupInvalid(`${at}: the stream's next revision should be ${expected}`);
    nextRevision.set(event.stream, expected + 1);
    if (event.hash === undefined || event.prevHash === undefined) throw new BackupInvalid(`${at}: has no hash: every event of a backup carries its link in the hash chain`);
    if (event.prevHash !== previousHash) throw new BackupInvalid(`${at}: its prevHash is not the hash of the event before it: the chain is broken here`);
    if (eventHash(event.position, event.prevHash, event) !== event.hash) throw new BackupInvalid(`${at}: does not match its hash: the event was changed after it was recorded`);
    for (const { checkpoint, recordedAt } of signed.get(event.position) ?? []) {
      const where = `the checkpoint recorded at position ${recordedAt} (signed ${checkpoint.time}) for position ${checkpoint.position}`;
      if (!isSignedByTrustedKey(checkpoint, keys.trustedKeys)) throw new BackupInvalid(`${where} is not signed with the audit signing key: it is forged`);
      if (checkpoint.hash !== event.hash) {
        throw new BackupInvalid(`${where} says the chain's hash there is ${checkpoint.hash}, the backup's is ${event.hash}: the log up to there was rewritten`);
      }
      checkpoints++;
    }
    signed.delete(event.position);
    previousHash = event.hash;
    lastPosition = event.position;
    count++;
    onProgress?.(count, lastPosition, header!.headPosition);
  }
}

export interface RestoreResult extends VerifiedBackup {
  /** The restored events kept the positions they had (the target numbers events 1, 2, 3… as the source did). */
  positionsKept: boolean;
  seconds: number;
}

function toNewEvent(event: BackupEvent): NewEvent {
  return { id: event.id, type: event.type, data: event.data, metadata: event.metadata, createdAt: event.createdAt };
}

/** The log must be empty: restore never mixes a backup into existing events. */
export async function assertEmpty(store: EventStore): Promise<void> {
  const head = await store.headPosition();
  if (head !== 0) throw new BackupInvalid(`the event store at EVENTSTORE_URL already holds events (head position ${head}); restore only into an empty store`);
}

/**
 * `lending restore FILE`: verifies the backup — its hash chain, the signed checkpoints inside it and
 * its signed closing line (nothing is written from a file that fails) — loads it
 * into an empty store — every event with its id, stream, revision, data, metadata and original
 * creation time, in log order — and reads the restored log back to check it equals the backup
 * (and, where both carry hashes at the same positions, that the store's hashes are the backup's).
 * The read models are then rebuilt with `lending replay`.
 */
export async function restoreBackup(store: EventStore, file: string, { onProgress, ...keys }: BackupKeys & { onProgress?: Progress }): Promise<RestoreResult> {
  const started = Date.now();
  if (store.kind === 'esdb') {
    throw new BackupInvalid('EventStoreDB records its own time for every event, so a restore there would lose when each event happened: restore into PostgreSQL (postgres://…) or PGlite');
  }
  await assertEmpty(store);
  const verified = await verifyBackup(file, keys);
  await assertEmpty(store);

  // Load: consecutive events of one stream go in one append, expecting the revision before them;
  // the store writes appends in the order they were made, so positions follow the backup's order.
  const inFlight = new Set<Promise<unknown>>();
  let failure: unknown = null;
  let batch: BackupEvent[] = [];
  let loaded = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const events = batch;
    batch = [];
    const first = events[0];
    const appending = store
      .append(first.stream, events.map(toNewEvent), { expectedRevision: first.revision === 0 ? 'no_stream' : first.revision - 1 })
      .then(() => {
        loaded += events.length;
        onProgress?.(loaded, events[events.length - 1].position, verified.header.headPosition);
      })
      .catch((error: unknown) => (failure ??= error))
      .finally(() => inFlight.delete(appending));
    inFlight.add(appending);
    if (inFlight.size >= APPENDS_IN_FLIGHT) await Promise.race(inFlight);
  };
  for await (const item of backupEvents(file, keys.encryptionKey ?? null)) {
    if (failure) break;
    if (!('event' in item)) continue;
    const last = batch[batch.length - 1];
    if (last && (last.stream !== item.event.stream || batch.length >= MAX_APPEND_EVENTS)) await flush();
    batch.push(item.event);
  }
  await flush();
  await Promise.all(inFlight);
  if (failure) {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a non-Error failure is shown in its own string form, whatever it is
    throw new Error(`the store refused an append after ${loaded} events were restored (${failure instanceof Error ? failure.message : String(failure)}); restore again into a new, empty store`);
  }

  // Read back: the store now holds exactly the backup's events, in its order.
  const chain = (store as EventStore & { readChain?(options: { from: number; limit: number }): Promise<(RecordedEvent & { hash?: string })[]> }).readChain?.bind(store);
  let page: (RecordedEvent & { hash?: string })[] = [];
  let index = 0;
  let from = 0;
  let positionsKept = true;
  for await (const item of backupEvents(file, keys.encryptionKey ?? null)) {
    if (!('event' in item)) continue;
    if (index === page.length) {
      page = chain ? await chain({ from, limit: 1_000 }) : await store.readAll({ from, limit: 1_000 });
      index = 0;
    }
    const stored = page[index++];
    const expected = item.event;
    const same =
      stored !== undefined &&
      stored.id === expected.id &&
      stored.stream === expected.stream &&
      stored.revision === expected.revision &&
      stored.type === expected.type &&
      stored.createdAt === expected.createdAt &&
      isDeepStrictEqual(stored.data, expected.data) &&
      isDeepStrictEqual(stored.metadata, expected.metadata);
    if (!same) throw new Error(`the restored log differs from the backup at line ${item.line} (${expected.stream} #${expected.revision})`);
    if (stored.position !== expected.position) positionsKept = false;
    if (positionsKept && expected.hash && stored.hash && stored.hash !== expected.hash) {
      throw new Error(`the store's hash at position ${stored.position} is not the backup's: the backup's events were changed`);
    }
    from = stored.position;
  }
  if ((await store.headPosition()) !== from) throw new Error('the store holds more events than the backup: something else wrote to it during the restore');
  return { ...verified, positionsKept, seconds: (Date.now() - started) / 1000 };
}

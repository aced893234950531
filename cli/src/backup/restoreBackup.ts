import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { isDeepStrictEqual } from 'node:util';
import { createGunzip } from 'node:zlib';
import type { z } from 'zod';
import type { EventStore, NewEvent, RecordedEvent } from '@honeylend/eventstore';
import { BackupInvalid, backupEventSchema, backupHeaderSchema, backupTrailerSchema, type BackupEvent, type BackupHeader } from './backupFormat.js';

/** The prevHash of a log's first event (design §10). */
const GENESIS_HASH = '0'.repeat(64);
/** Events per append (one stream's consecutive events) and appends in flight at once. */
const MAX_APPEND_EVENTS = 500;
const APPENDS_IN_FLIGHT = 32;

type Progress = (events: number, position: number, head: number) => void;

interface Line {
  number: number;
  text: string;
}

async function* linesOf(file: string): AsyncGenerator<Line> {
  const input = createReadStream(file);
  const gunzip = createGunzip();
  input.on('error', (error) => gunzip.destroy(error));
  let number = 0;
  try {
    for await (const text of createInterface({ input: input.pipe(gunzip), crlfDelay: Infinity })) {
      number++;
      yield { number, text };
    }
  } catch (error) {
    throw new BackupInvalid(`${file} is not a readable gzip file (${error instanceof Error ? error.message : String(error)})`);
  } finally {
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

/** The backup's events in order, each checked as it is read; the header first. */
async function* backupEvents(file: string): AsyncGenerator<{ header: BackupHeader } | { event: BackupEvent; line: number }, { events: number; sha256: string; trailer: unknown }> {
  const digest = createHash('sha256');
  let header: BackupHeader | null = null;
  let trailer: Line | null = null;
  let events = 0;
  for await (const line of linesOf(file)) {
    if (trailer) throw new BackupInvalid(`line ${line.number}: more lines after the end of the backup`);
    if (!header) {
      header = parsed(backupHeaderSchema, line, 'the header of a Honeylend backup (format honeylend-backup, version 1)');
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

export interface VerifiedBackup {
  header: BackupHeader;
  events: number;
  lastPosition: number;
  /** Every event carries its hash, and each links to the one before it. */
  chained: boolean;
}

/**
 * Reads the whole backup once and refuses it at the first thing wrong, naming the line: a line
 * that is not an event, positions out of order, a stream whose revisions skip or repeat, a hash
 * chain that does not link (each event's prevHash must be the hash before it, the first one's
 * the genesis hash), or a digest or count that differs from the closing line's (a cut or edited
 * file).
 */
export async function verifyBackup(file: string, onProgress?: Progress): Promise<VerifiedBackup> {
  const reading = backupEvents(file);
  let header: BackupHeader | undefined;
  const nextRevision = new Map<string, number>();
  let lastPosition = 0;
  let previousHash: string | null = null;
  let chained: boolean | null = null;
  let count = 0;
  for (;;) {
    const next = await reading.next();
    if (next.done) {
      const { events, sha256, trailer } = next.value;
      const end = trailer as z.infer<typeof backupTrailerSchema>;
      if (end.events !== events || end.lastPosition !== lastPosition) {
        throw new BackupInvalid(`the closing line counts ${end.events} events up to position ${end.lastPosition}, the file holds ${events} up to ${lastPosition}`);
      }
      if (end.sha256 !== sha256) throw new BackupInvalid('the events do not match the digest on the closing line: the file was changed after it was written');
      if (lastPosition > header!.headPosition) throw new BackupInvalid(`an event at position ${lastPosition} is past the head the backup was taken at (${header!.headPosition})`);
      return { header: header!, events, lastPosition, chained: chained === true };
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
    const hasHash = event.hash !== undefined && event.prevHash !== undefined;
    chained ??= hasHash;
    if (hasHash !== chained) throw new BackupInvalid(`${at}: ${chained ? 'has no hash where every event before it had one' : 'has a hash where the events before it had none'}`);
    if (hasHash) {
      const expectedPrevious = previousHash ?? GENESIS_HASH;
      if (event.prevHash !== expectedPrevious) throw new BackupInvalid(`${at}: its prevHash is not the hash of the event before it: the chain is broken here`);
      previousHash = event.hash!;
    }
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
 * `lending restore FILE`: verifies the backup (nothing is written from a file that fails), loads it
 * into an empty store — every event with its id, stream, revision, data, metadata and original
 * creation time, in log order — and reads the restored log back to check it equals the backup
 * (and, where both carry hashes at the same positions, that the store's hashes are the backup's).
 * The read models are then rebuilt with `lending replay`.
 */
export async function restoreBackup(store: EventStore, file: string, { onProgress }: { onProgress?: Progress } = {}): Promise<RestoreResult> {
  const started = Date.now();
  if (store.kind === 'esdb') {
    throw new BackupInvalid('EventStoreDB records its own time for every event, so a restore there would lose when each event happened: restore into PostgreSQL (postgres://…) or PGlite');
  }
  await assertEmpty(store);
  const verified = await verifyBackup(file);
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
  for await (const item of backupEvents(file)) {
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
  for await (const item of backupEvents(file)) {
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

import { randomUUID, type KeyObject } from 'node:crypto';
import { WrongExpectedVersion, type EventStore } from '../port.js';
import { chainPages } from './chainReader.js';
import { CHECKPOINT_EVENT_TYPE, CHECKPOINT_STREAM, readStoredCheckpoints, signCheckpoint, type Checkpoint } from './checkpoint.js';
import { GENESIS_HASH, eventHash } from './eventHash.js';

export interface CheckpointerOptions {
  store: EventStore;
  signingKey: KeyObject;
  /** A checkpoint once this many events (checkpoints not counted) follow the last one. Default 10,000. */
  everyEvents?: number;
  /** …and at least this often while events arrive. Default one hour. */
  everyMs?: number;
  /** Pause between looks at the log when it is quiet. Default 2 s. */
  pollMs?: number;
  now?: () => Date;
  logger?: { warn(message: string, fields?: Record<string, unknown>): void; error(message: string, fields?: Record<string, unknown>): void };
}

export class ChainBrokenError extends Error {
  override readonly name = 'ChainBrokenError';
}

/**
 * Signs checkpoints of the log (design §10): every 10,000 events and at least hourly, at the
 * newest event read, into the checkpoint stream. It reads the log after its last checkpoint and
 * re-checks every link it signs over, so it never puts its signature on a chain that does not
 * hold together. Several signers on one log settle races through the checkpoint stream's revision.
 */
export class AuditCheckpointer {
  private readonly everyEvents: number;
  private readonly everyMs: number;
  private readonly pollMs: number;
  private readonly now: () => Date;
  private loaded = false;
  /** The checkpoint stream's revision, for the next append. */
  private revision: number | 'no_stream' = 'no_stream';
  private last: Pick<Checkpoint, 'position' | 'hash' | 'time'> | null = null;
  /** How far the log was read, the hash there, and the events since the last checkpoint. */
  private cursor = 0;
  private cursorHash = GENESIS_HASH;
  private sinceLast = 0;

  constructor(private readonly options: CheckpointerOptions) {
    this.everyEvents = options.everyEvents ?? 10_000;
    this.everyMs = options.everyMs ?? 3_600_000;
    this.pollMs = options.pollMs ?? 2_000;
    this.now = options.now ?? (() => new Date());
  }

  private async load(): Promise<void> {
    const stored = await readStoredCheckpoints(this.options.store);
    const streamEvents = await this.options.store.readStream(CHECKPOINT_STREAM);
    this.revision = streamEvents.length === 0 ? 'no_stream' : streamEvents[streamEvents.length - 1].revision;
    const last = stored.at(-1);
    this.last = last ? { position: last.position, hash: last.hash, time: last.time } : null;
    this.cursor = last?.position ?? 0;
    this.cursorHash = last?.hash ?? GENESIS_HASH;
    this.sinceLast = 0;
    this.loaded = true;
  }

  /** Reads what is new and signs where due; answers the checkpoints it signed. */
  async tick(): Promise<Checkpoint[]> {
    if (!this.loaded) await this.load();
    const signed: Checkpoint[] = [];
    const stored = this.options.store.integrity.hashChain === 'stored';
    for await (const page of chainPages(this.options.store, { from: this.cursor, prevHash: this.cursorHash })) {
      for (const event of page) {
        if (stored && (event.prevHash !== this.cursorHash || eventHash(event.position, event.prevHash, event) !== event.hash)) {
          throw new ChainBrokenError(`the log's chain does not hold at position ${event.position}; no checkpoint is signed over it (run lending audit verify)`);
        }
        this.cursor = event.position;
        this.cursorHash = event.hash;
        if (event.type !== CHECKPOINT_EVENT_TYPE) this.sinceLast++;
        if (this.sinceLast >= this.everyEvents) {
          const checkpoint = await this.signHere();
          if (!checkpoint) return signed;
          signed.push(checkpoint);
        }
      }
    }
    const hourly = this.last === null || this.now().getTime() - Date.parse(this.last.time) >= this.everyMs;
    if (hourly && this.sinceLast > 0) {
      const checkpoint = await this.signHere();
      if (checkpoint) signed.push(checkpoint);
    }
    return signed;
  }

  /** Signs the cursor's position; on losing a race to another signer, starts again from theirs (null). */
  private async signHere(): Promise<Checkpoint | null> {
    const checkpoint = signCheckpoint(this.options.signingKey, { position: this.cursor, hash: this.cursorHash, time: this.now().toISOString() });
    try {
      const result = await this.options.store.append(CHECKPOINT_STREAM, [{ id: randomUUID(), type: CHECKPOINT_EVENT_TYPE, data: { ...checkpoint }, metadata: { actorId: 'system' } }], { expectedRevision: this.revision });
      this.revision = result.nextRevision;
      this.last = checkpoint;
      this.sinceLast = 0;
      return checkpoint;
    } catch (error) {
      if (!(error instanceof WrongExpectedVersion)) throw error;
      this.loaded = false;
      return null;
    }
  }

  /** Signs until aborted; a failure is logged and tried again after a pause. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.tick();
      } catch (error) {
        if (signal.aborted) return;
        this.loaded = false;
        const fields = { error: error instanceof Error ? error.message : String(error) };
        if (error instanceof ChainBrokenError) this.options.logger?.error('audit checkpoints stopped: the chain is broken', fields);
        else this.options.logger?.warn('audit checkpoint failed; retrying', fields);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.pollMs);
        signal.addEventListener('abort', done, { once: true });
        function done() {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve();
        }
      });
    }
  }
}

import type { KeyObject } from 'node:crypto';
import type { ChainedEvent, EventStore } from '../port.js';
import { chainPages } from './chainReader.js';
import { isSignedByTrustedKey, readStoredCheckpoints, type Checkpoint } from './checkpoint.js';
import { GENESIS_HASH, eventHash } from './eventHash.js';

/** What is wrong at the first bad position. */
export type VerifyFailureReason = 'changed-content' | 'missing-event' | 'broken-link' | 'forged-checkpoint' | 'checkpoint-mismatch';

export const FAILURE_REASON_TEXT: Record<VerifyFailureReason, string> = {
  'changed-content': 'changed content',
  'missing-event': 'missing event',
  'broken-link': 'broken link',
  'forged-checkpoint': 'forged checkpoint',
  'checkpoint-mismatch': 'the chain does not pass through a signed checkpoint (the log before it was rewritten)',
};

export interface FirstBad {
  position: number;
  reason: VerifyFailureReason;
  detail: string;
}

export interface VerifyProgress {
  verifiedTo: number;
  checkedEvents: number;
  /** The last position this run checks. */
  to: number;
}

export interface VerifyReport extends VerifyProgress {
  status: 'passed' | 'failed';
  from: number;
  checkedCheckpoints: number;
  firstBad: FirstBad | null;
  seconds: number;
}

export interface VerifyOptions {
  /** First position checked (default 1: the whole log). */
  from?: number;
  /** Last position checked (default: the head when the run starts). */
  to?: number;
  /** Checkpoints kept outside the store (an exported file), checked with those in it. */
  extraCheckpoints?: readonly Checkpoint[];
  /** Public keys whose signatures count; a checkpoint signed by any other key is forged. */
  trustedKeys: readonly KeyObject[];
  onProgress?: (progress: VerifyProgress) => void;
  signal?: AbortSignal;
}

class Failure extends Error {
  constructor(readonly firstBad: FirstBad) {
    super(firstBad.detail);
  }
}

/**
 * `lending audit verify` (design §10): recomputes every hash in the range, checks that positions
 * are contiguous and every link points at the event before, that every checkpoint is signed by a
 * trusted key and that the chain passes through it. Stops at the first bad position, naming what
 * is wrong there. On a store whose chain is computed (EventStoreDB) the range starts at the
 * nearest trusted checkpoint at or before it (or the beginning), and the checkpoints are what
 * the recomputed digest is checked against.
 */
export async function verifyLog(store: EventStore, options: VerifyOptions): Promise<VerifyReport> {
  const started = performance.now();
  const from = Math.max(1, options.from ?? 1);
  const to = options.to ?? (await store.headPosition());
  const dense = store.integrity.densePositions;
  const stored = store.integrity.hashChain === 'stored';
  const checkpoints = [...(await readStoredCheckpoints(store)), ...(options.extraCheckpoints ?? [])].filter((checkpoint) => checkpoint.position <= to).sort((a, b) => a.position - b.position);
  const progress: VerifyProgress = { verifiedTo: from - 1, checkedEvents: 0, to };
  let checkedCheckpoints = 0;
  let pending = checkpoints.filter((checkpoint) => checkpoint.position >= from);

  const report = (firstBad: FirstBad | null): VerifyReport => ({
    ...progress,
    status: firstBad ? 'failed' : 'passed',
    from,
    checkedCheckpoints,
    firstBad,
    seconds: (performance.now() - started) / 1000,
  });

  /** The checkpoints at `position` (all must be genuine and on the chain); those before it were passed without being reached. */
  const checkCheckpointsUpTo = (position: number, hashThere: string | null) => {
    while (pending.length > 0 && pending[0].position <= position) {
      const checkpoint = pending.shift()!;
      if (!isSignedByTrustedKey(checkpoint, options.trustedKeys)) {
        throw new Failure({ position: checkpoint.position, reason: 'forged-checkpoint', detail: `the checkpoint at position ${checkpoint.position} (${checkpoint.time}) is not signed by a trusted key` });
      }
      if (checkpoint.position < position || hashThere === null) {
        throw new Failure({ position: checkpoint.position, reason: 'missing-event', detail: `a signed checkpoint shows an event at position ${checkpoint.position}, which is not in the log` });
      }
      if (checkpoint.hash !== hashThere) {
        throw new Failure({
          position: checkpoint.position,
          reason: 'checkpoint-mismatch',
          detail: `the chain's hash at ${checkpoint.position} is ${hashThere}, but the checkpoint signed at ${checkpoint.time} says ${checkpoint.hash}: the log up to there was rewritten`,
        });
      }
      checkedCheckpoints++;
    }
  };

  try {
    // Where the range starts: the link it must continue from.
    let readFrom = from - 1;
    let expectedPrev: string | null = from === 1 ? GENESIS_HASH : null;
    if (!stored) {
      // A computed chain can only be rebuilt from a point whose hash is known: the last genuine checkpoint before the range.
      const anchor = checkpoints.filter((checkpoint) => checkpoint.position < from && isSignedByTrustedKey(checkpoint, options.trustedKeys)).at(-1);
      readFrom = anchor?.position ?? 0;
      expectedPrev = anchor?.hash ?? GENESIS_HASH;
      pending = checkpoints.filter((checkpoint) => checkpoint.position > readFrom);
    } else if (from > 1) {
      const [before] = await store.readChain!({ from: from - 2, limit: 1 });
      if (before && before.position === from - 1) expectedPrev = before.hash;
    }

    let expectedPosition = from;
    for await (const page of chainPages(store, { from: readFrom, to, prevHash: expectedPrev ?? GENESIS_HASH, signal: options.signal })) {
      for (const event of page) {
        // A verification may run inside an API process: requests get in between every thousand events.
        if (progress.checkedEvents % 1_000 === 999) await new Promise<void>((resolve) => setImmediate(resolve));
        checkEvent(event);
        if (event.position >= from) progress.checkedEvents++;
        progress.verifiedTo = Math.max(progress.verifiedTo, event.position);
      }
      options.onProgress?.({ ...progress });
    }
    if (options.signal?.aborted) throw new Error('verification was stopped');
    if (dense && expectedPosition <= to) {
      throw new Failure({ position: expectedPosition, reason: 'missing-event', detail: `the log ends at ${expectedPosition - 1}, but its head was ${to}` });
    }
    checkCheckpointsUpTo(Number.MAX_SAFE_INTEGER, null);
    progress.verifiedTo = to;
    return report(null);

    function checkEvent(event: ChainedEvent): void {
      if (dense && event.position !== expectedPosition) {
        throw new Failure({
          position: expectedPosition,
          reason: 'missing-event',
          detail: `position ${expectedPosition} is missing: the event after ${expectedPosition - 1} is at ${event.position}`,
        });
      }
      if (stored) {
        if (expectedPrev !== null && event.prevHash !== expectedPrev) {
          throw new Failure({ position: event.position, reason: 'broken-link', detail: `the event at ${event.position} does not link to the event before it (its prev_hash is ${event.prevHash || 'missing'})` });
        }
        if (eventHash(event.position, event.prevHash, event) !== event.hash) {
          throw new Failure({ position: event.position, reason: 'changed-content', detail: `the event at ${event.position} (${event.type} in ${event.stream}) does not match its hash: its content was changed` });
        }
      }
      checkCheckpointsUpTo(event.position, event.hash);
      expectedPrev = event.hash;
      expectedPosition = event.position + 1;
    }
  } catch (error) {
    if (error instanceof Failure) {
      progress.verifiedTo = Math.min(progress.verifiedTo, error.firstBad.position - 1);
      return report(error.firstBad);
    }
    throw error;
  }
}

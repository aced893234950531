import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FAILURE_REASON_TEXT, parseCheckpointFile, verifyLogInParallel, type Checkpoint, type EventStore } from '@honeylend/eventstore';
import type { Config } from '../config.js';
import { terminalProgress } from '../progressBar.js';
import { trustedAuditKeys } from './signingKeys.js';

export const VERIFY_USAGE = 'lending audit verify [--from N] [--to M] [--checkpoints FILE]';

export interface VerifyArguments {
  from?: number;
  to?: number;
  /** Read from --checkpoints FILE, before the store is opened. */
  extraCheckpoints: Checkpoint[];
  /** --workers N: threads checking parts of the range at once on PostgreSQL (default: the cores, from 100,000 events). */
  workers: number | 'auto';
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

function position(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,15}$/.test(value) || Number(value) < 1) throw new UsageError(`--${name} is a position: a whole number from 1 (${VERIFY_USAGE})`);
  return Number(value);
}

export function parseVerifyArguments(args: string[]): VerifyArguments {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: { from: { type: 'string' }, to: { type: 'string' }, checkpoints: { type: 'string' }, workers: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)} (${VERIFY_USAGE})`);
  }
  const from = position('from', values.from);
  const to = position('to', values.to);
  if (from !== undefined && to !== undefined && from > to) throw new UsageError(`--from must not be after --to (${VERIFY_USAGE})`);
  if (values.workers !== undefined && !/^([1-9]|1[0-6])$/.test(values.workers)) throw new UsageError(`--workers is a whole number from 1 to 16 (${VERIFY_USAGE} [--workers N])`);
  const workers = values.workers === undefined ? 'auto' : Number(values.workers);
  return { from, to, workers, extraCheckpoints: values.checkpoints === undefined ? [] : readCheckpointFile(values.checkpoints) };
}

function readCheckpointFile(path: string): Checkpoint[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the checkpoint file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return parseCheckpointFile(text);
  } catch (error) {
    throw new UsageError(`${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * `lending audit verify`: recomputes the chain over the range with a progress bar, prints a
 * summary, and answers the exit code: 0 when the log holds, 1 naming the first bad position.
 */
export async function verifyCommand(config: Config, store: EventStore, args: VerifyArguments): Promise<number> {
  const bar = terminalProgress();
  const span = (from: number, to: number, at: number) => (to >= from ? (at - from + 1) / (to - from + 1) : 1);
  const report = await verifyLogInParallel(store, config.eventStoreUrl, {
    workers: args.workers,
    from: args.from,
    to: args.to,
    extraCheckpoints: args.extraCheckpoints,
    trustedKeys: trustedAuditKeys(config),
    onProgress: (progress) => bar.update(span(args.from ?? 1, progress.to, progress.verifiedTo), `${progress.checkedEvents} events`),
  });
  bar.finish(span(report.from, report.to, report.verifiedTo), `${report.checkedEvents} events`);
  const rate = report.seconds > 0 ? Math.round(report.checkedEvents / report.seconds) : report.checkedEvents;
  const range = `positions ${report.from}–${report.to}`;
  const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
  const counts = `${plural(report.checkedEvents, 'event')} and ${plural(report.checkedCheckpoints, 'signed checkpoint')} checked in ${report.seconds.toFixed(1)} s (${rate} events/s)`;
  if (report.firstBad === null) {
    process.stdout.write(`verified ${range} of the ${store.kind} log: the chain holds. ${counts}\n`);
    return 0;
  }
  const { position: bad, reason, detail } = report.firstBad;
  process.stdout.write(`verified ${range} of the ${store.kind} log: FAILED at position ${bad}: ${FAILURE_REASON_TEXT[reason]}. ${counts}; the log holds up to ${report.verifiedTo}\n`);
  process.stderr.write(`lending: the log fails verification at position ${bad} (${reason}): ${detail}\n`);
  return 1;
}

import { randomUUID } from 'node:crypto';
import { dayCloseEvents, parseDomainEvent, streams, type BusinessDate, type LoanDoc } from '@honeylend/contracts';
import { WrongExpectedVersion, type EventMetadata } from '@honeylend/eventstore';
import { handleCommand } from '../../platform/commands/commandHandler.js';
import { loanDecider } from '../../lending/decide.js';
import type { LoanBookDeps } from '../loanBookDeps.js';

export type DayCloseDeps = LoanBookDeps;

export interface DayCloseResult {
  through: BusinessDate;
  /** Active loans looked at. */
  loans: number;
  /** Loans for which something was recorded. */
  changed: number;
  events: number;
}

const DOCS_PER_READ = 500;
const LOANS_AT_ONCE = 32;

export const dayCloseMetadata = (through: BusinessDate): EventMetadata => ({ correlationId: `day-close:${through}`, causationId: `day-close:${through}`, actorId: 'system' });

/**
 * Opens every business date up to `through` for every active loan (the day close, design §9).
 * Each loan is decided from its read-model document (its account and the stream revision it
 * reflects) and appended expecting that revision: no stream is read for the many loans with
 * nothing to record. A stale document, or another worker closing the same day, makes the append
 * fail; that loan is then decided again on its stream, where a day already opened records nothing.
 * So the close is idempotent per loan and date, catches up every missed day, and two workers
 * running it at once record each day once.
 */
export async function closeBusinessDays(deps: DayCloseDeps, through: BusinessDate, metadata: EventMetadata = dayCloseMetadata(through)): Promise<DayCloseResult> {
  const ids = await deps.redis.zrange(deps.keys.loansByStatus('active'), 0, -1);
  const result: DayCloseResult = { through, loans: ids.length, changed: 0, events: 0 };
  for (let start = 0; start < ids.length; start += DOCS_PER_READ) {
    const batch = ids.slice(start, start + DOCS_PER_READ);
    const raws = await deps.redis.mget(...batch.map(deps.keys.loan));
    const docs = raws.filter((raw): raw is string => raw !== null).map((raw) => JSON.parse(raw) as LoanDoc);
    let next = 0;
    const worker = async () => {
      while (next < docs.length) {
        const recorded = await closeLoan(deps, docs[next++], through, metadata);
        if (recorded > 0) {
          result.changed += 1;
          result.events += recorded;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(LOANS_AT_ONCE, docs.length) }, worker));
  }
  return result;
}

async function closeLoan(deps: DayCloseDeps, doc: LoanDoc, through: BusinessDate, metadata: EventMetadata): Promise<number> {
  if (!doc.account || doc.account.paidOff || doc.account.today >= through) return 0;
  const events = dayCloseEvents(doc.account, through);
  if (events.length === 0) return 0;
  const stream = streams.loan(doc.id);
  if (doc.streamRevision !== undefined) {
    try {
      for (const event of events) parseDomainEvent(event.type, event.data);
      await deps.store.append(
        stream,
        events.map((event) => ({ id: randomUUID(), type: event.type, data: event.data, metadata })),
        { expectedRevision: doc.streamRevision },
      );
      return events.length;
    } catch (error) {
      if (!(error instanceof WrongExpectedVersion)) throw error;
    }
  }
  const decided = await handleCommand(deps.store, stream, loanDecider, { type: 'CloseBusinessDays', loanId: doc.id, through }, metadata);
  return decided.events.length;
}

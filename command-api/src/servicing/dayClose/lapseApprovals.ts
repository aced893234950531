import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { acceptanceDeadline, streams, type LoanDoc, type ReadModelKeys } from '@honeylend/contracts';
import type { EventMetadata, EventStore } from '@honeylend/eventstore';
import { handleCommand } from '../../platform/commands/commandHandler.js';
import { loanDecider } from '../../lending/decide.js';
import { closeLapsedApproval } from '../../lending/lapsedApproval.js';

export const lapseMetadata = (now: Date): EventMetadata => ({ correlationId: `approval-lapse:${now.toISOString().slice(0, 13)}`, actorId: 'system' });

/**
 * RA 3765 acceptance period: every approved loan whose Disclosure Statement the borrower did not
 * accept within APPROVAL_ACCEPTANCE_DAYS lapses (no money moved) and its application closes, so the
 * borrower may apply again. Run with the hourly day-close job; each loan is decided on its stream,
 * so a retry or a second worker records each lapse once. The borrower is told, in the app and by
 * text (one notice per loan: its id is derived from the loan's).
 */
export async function lapseUnacceptedApprovals(deps: { store: EventStore; redis: Redis; keys: ReadModelKeys; notificationQueue: Queue }, now: Date): Promise<number> {
  const ids = await deps.redis.zrange(deps.keys.loansByStatus('approved'), 0, -1);
  if (ids.length === 0) return 0;
  const docs = (await deps.redis.mget(...ids.map(deps.keys.loan))).filter((raw): raw is string => raw !== null).map((raw) => JSON.parse(raw) as LoanDoc);
  const due = docs.filter((doc) => doc.approvedAt && !doc.termsAcceptedAt && Date.parse(acceptanceDeadline(doc.approvedAt)) <= now.getTime());
  const metadata = lapseMetadata(now);
  let lapsed = 0;
  for (const doc of due) {
    const at = now.toISOString();
    const result = await handleCommand(deps.store, streams.loan(doc.id), loanDecider, { type: 'LapseApproval', loanId: doc.id, now: at }, metadata);
    if (result.events.length === 0) continue;
    await closeLapsedApproval(deps, { loanId: doc.id, memberId: doc.memberId, loanNumber: doc.loanNumber, amountCentavos: doc.amountCentavos }, at, metadata);
    lapsed += 1;
  }
  return lapsed;
}

import type { Redis } from 'ioredis';
import { streams, type ApprovalDoc, type ReadModelKeys } from '@honeylend/contracts';
import type { EventMetadata, EventStore } from '@honeylend/eventstore';
import { handleCommand } from '../platform/commands/commandHandler.js';
import { approvalDecider } from './approval.js';

export const expiryMetadata = (now: Date): EventMetadata => ({ correlationId: `approval-expiry:${now.toISOString().slice(0, 13)}`, actorId: 'system' });

/**
 * Four eyes (design §11): every request still pending APPROVAL_TTL_HOURS after it was made expires
 * and never runs. Run with the hourly servicing job (time from its injected clock); each request is
 * decided on its own stream with the revision read, so an approval racing the expiry is either
 * granted first (and not expired) or refused as expired — never both. The approve route refuses a
 * request past its time even before this job ran.
 */
export async function expireApprovals(deps: { store: EventStore; redis: Redis; keys: ReadModelKeys }, now: Date): Promise<number> {
  const ids = await deps.redis.zrange(deps.keys.approvalsByStatus('pending'), 0, -1);
  if (ids.length === 0) return 0;
  const docs = (await deps.redis.mget(...ids.map(deps.keys.approval))).filter((raw): raw is string => raw !== null).map((raw) => JSON.parse(raw) as ApprovalDoc);
  const metadata = expiryMetadata(now);
  let expired = 0;
  for (const doc of docs.filter((d) => Date.parse(d.expiresAt) <= now.getTime())) {
    const result = await handleCommand(deps.store, streams.approval(doc.id), approvalDecider, { type: 'ExpireApproval', approvalId: doc.id, now: now.toISOString() }, metadata);
    expired += result.events.length;
  }
  return expired;
}

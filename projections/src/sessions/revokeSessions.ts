import type { ProjectedEvent } from '../projection.js';
import type { ReadModelTransaction } from '../readModelTransaction.js';

/**
 * A change-feed entry that names no room: every API node, reading it, ends the account's live
 * sockets — whichever node took the suspension, reset or deletion.
 */
export function revokeSessions(tx: ReadModelTransaction, event: ProjectedEvent, id: string, reason: string): void {
  tx.publish({ rooms: [], event: 'session.revoked', doc: { id, reason }, version: event.position });
}

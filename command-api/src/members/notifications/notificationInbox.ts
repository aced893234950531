import type { EventOf } from '@honeylend/contracts';
import type { Decider } from '../../platform/commands/decider.js';

/** Stream notifications-<member id>: which of the member's notifications they have read. */
export type InboxEvent = EventOf<'NotificationsRead'>;

export interface InboxState {
  readIds: ReadonlySet<string>;
}

/**
 * The member read these notifications. The route has checked that each is one of the member's
 * own (the read model lists them); read ones already are left out, so a retry, or the same
 * notification read on two devices at once, records it once.
 */
export type InboxCommand = { type: 'MarkNotificationsRead'; memberId: string; notificationIds: readonly string[]; now: string };

/** At most this many ids go in one event; "read all" of a longer list records several. */
export const NOTIFICATIONS_READ_PER_EVENT = 1000;

export function decideInbox(command: InboxCommand, state: InboxState): InboxEvent[] {
  const unread = [...new Set(command.notificationIds)].filter((id) => !state.readIds.has(id));
  const events: InboxEvent[] = [];
  for (let i = 0; i < unread.length; i += NOTIFICATIONS_READ_PER_EVENT) {
    events.push({ type: 'NotificationsRead', data: { memberId: command.memberId, notificationIds: unread.slice(i, i + NOTIFICATIONS_READ_PER_EVENT), readAt: command.now } });
  }
  return events;
}

export const inboxDecider: Decider<InboxState, InboxCommand, InboxEvent> = {
  initialState: () => ({ readIds: new Set() }),
  evolve: (state, event) => ({ readIds: new Set([...state.readIds, ...event.data.notificationIds]) }),
  decide: decideInbox,
};

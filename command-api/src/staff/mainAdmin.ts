import type { EventOf } from '@honeylend/contracts';
import type { EventStore } from '@honeylend/eventstore';
import type { Decider } from '../platform/commands/decider.js';

/**
 * Stream main-admin: which account is the main admin. Designated once and never again, so the
 * system has exactly one main admin whatever ADMIN_USERNAME a later start is given.
 */
export type MainAdminEvent = EventOf<'MainAdminDesignated'>;
export type MainAdminState = { designated: false } | { designated: true; adminId: string; username: string };
export type MainAdminCommand = { type: 'DesignateMainAdmin'; adminId: string; username: string; now: string };

export const mainAdminDecider: Decider<MainAdminState, MainAdminCommand, MainAdminEvent> = {
  initialState: () => ({ designated: false }),
  evolve: (_state, event) => ({ designated: true, adminId: event.data.adminId, username: event.data.username }),
  // Already designated (by an earlier start, or another node starting at the same moment): that one stands.
  decide: (command, state) => (state.designated ? [] : [{ type: 'MainAdminDesignated', data: { adminId: command.adminId, username: command.username, designatedAt: command.now } }]),
};

/**
 * The main admin of a log written before main admins were designated: its first account made with
 * role superadmin (only the start ever makes one). Read once, on the first start that finds no
 * designation.
 */
export async function earlierMainAdmin(store: EventStore): Promise<{ adminId: string; username: string } | null> {
  let from = 0;
  for (;;) {
    const events = await store.readAll({ from, limit: 1000 });
    for (const event of events) {
      if (event.type === 'AdminAccountCreated' && event.data.role === 'superadmin') return { adminId: String(event.data.adminId), username: String(event.data.username) };
    }
    if (events.length === 0) return null;
    from = events[events.length - 1].position;
  }
}

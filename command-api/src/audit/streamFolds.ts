import { maskPersonalFields, parseDomainEvent, type DomainEvent } from '@honeylend/contracts';
import type { RecordedEvent } from '@honeylend/eventstore';
import type { Decider } from '../platform/commands/decider.js';
import { memberDecider } from '../members/decide.js';
import { phoneReservationDecider } from '../members/phoneReservation.js';
import { loanDecider } from '../lending/decide.js';
import { adminAccountDecider, adminUsernameDecider } from '../staff/adminAccount.js';
import { allowedIpsDecider } from '../staff/allowedIps/allowedIps.js';
import { mainAdminDecider } from '../staff/mainAdmin.js';
import { customLoanStatusesDecider } from '../lending/statuses/customLoanStatuses.js';
import { auditAccessDecider } from '../staff/personalData/auditAccessLog.js';
import { inboxDecider } from '../members/notifications/notificationInbox.js';
import { approvalDecider, approvalSettingsDecider } from '../approvals/approval.js';

type AnyDecider = Decider<unknown, never, DomainEvent>;

/** Which decider owns a stream, by its name; the first match wins (admin-username- before admin-). */
const OWNERS: Array<{ aggregate: string; matches: (stream: string) => boolean; decider: AnyDecider }> = [
  { aggregate: 'member', matches: (s) => s.startsWith('member-'), decider: memberDecider },
  { aggregate: 'loan', matches: (s) => s.startsWith('loan-'), decider: loanDecider },
  { aggregate: 'phone', matches: (s) => s.startsWith('phone-'), decider: phoneReservationDecider },
  { aggregate: 'admin-username', matches: (s) => s.startsWith('admin-username-'), decider: adminUsernameDecider },
  { aggregate: 'admin', matches: (s) => s.startsWith('admin-'), decider: adminAccountDecider },
  { aggregate: 'main-admin', matches: (s) => s === 'main-admin', decider: mainAdminDecider },
  { aggregate: 'allowed-ips', matches: (s) => s === 'settings-admin-ips', decider: allowedIpsDecider },
  { aggregate: 'loan-statuses', matches: (s) => s === 'settings-loan-statuses', decider: customLoanStatusesDecider },
  { aggregate: 'audit-access', matches: (s) => s.startsWith('audit-access-'), decider: auditAccessDecider },
  { aggregate: 'notifications', matches: (s) => s.startsWith('notifications-'), decider: inboxDecider },
  // Four eyes (design §11): one request waiting for a second admin, and the settings.
  { aggregate: 'approval', matches: (s) => s.startsWith('approval-'), decider: approvalDecider },
  { aggregate: 'approval-settings', matches: (s) => s === 'settings-approvals', decider: approvalSettingsDecider },
];

export function ownerOf(stream: string): { aggregate: string; decider: AnyDecider } | null {
  return OWNERS.find((owner) => owner.matches(stream)) ?? null;
}

/** Fields of a state never shown: credentials. */
const SECRET_STATE_FIELDS = new Set(['passwordHash']);

/** A decider's state as JSON: sets become sorted arrays, maps objects, credentials redacted. */
export function stateAsJson(value: unknown): unknown {
  if (value instanceof Set) return [...value].map(stateAsJson).sort();
  if (value instanceof Map) return Object.fromEntries([...value].map(([key, item]) => [String(key), stateAsJson(item)]));
  if (Array.isArray(value)) return value.map(stateAsJson);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, SECRET_STATE_FIELDS.has(key) ? '[redacted]' : stateAsJson(item)]));
}

export interface FoldedAsOf {
  aggregate: string | null;
  /** JSON of the state after events[0..revision], and after events[0..revision-1]. */
  state: unknown;
  previous: unknown;
}

/**
 * A stream's state as of its event at `revision` (-1: before the first), folded with the same
 * evolve its decider uses when deciding, from the same validated events: what the system knew then.
 * A stream no decider owns (number sequences, checkpoints) has no state beyond its events.
 */
export function foldAsOf(stream: string, events: readonly RecordedEvent[], revision: number, mask: boolean): FoldedAsOf {
  const owner = ownerOf(stream);
  if (!owner) return { aggregate: null, state: null, previous: null };
  let state = owner.decider.initialState();
  let previous: unknown = null;
  for (const recorded of events.slice(0, revision + 1)) {
    previous = state;
    state = owner.decider.evolve(state, parseDomainEvent(recorded.type, recorded.data));
  }
  const show = (value: unknown) => (mask ? maskPersonalFields(stateAsJson(value)) : stateAsJson(value));
  return { aggregate: owner.aggregate, state: show(state), previous: revision >= 0 ? show(previous) : null };
}

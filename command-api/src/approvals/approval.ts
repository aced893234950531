import { APPROVAL_TTL_HOURS, DEFAULT_APPROVAL_SETTINGS, EXECUTION_RESUME_AFTER_MS, type ApprovalCommand, type ApprovalSettings, type ApprovalStatus, type EventOf } from '@honeylend/contracts';
import { DomainError, type Decider } from '../platform/commands/decider.js';

/** Stream approval-<id>: one command waiting for a second admin (design §11). */
export type ApprovalEvent = EventOf<'ApprovalRequested' | 'ApprovalGranted' | 'ApprovalExecuted' | 'ApprovalRejected' | 'ApprovalExpired'>;

export type ApprovalState =
  | { exists: false }
  | {
      exists: true;
      approvalId: string;
      command: ApprovalCommand;
      makerId: string;
      reason: string;
      requestedAt: string;
      expiresAt: string;
      status: ApprovalStatus;
      checkerId: string | null;
      grantedAt: string | null;
      /** The command ran (or was refused by its own rules) after the grant. */
      executed: boolean;
    };

export type ApprovalDecision =
  | { type: 'RequestApproval'; approvalId: string; command: ApprovalCommand; makerId: string; reason: string; now: string }
  /**
   * A second admin approves: refused for the maker (the main admin included), after a decision, and
   * after expiry. On a request granted at least EXECUTION_RESUME_AFTER_MS ago whose execution was
   * never recorded (the process stopped between the grant and the command), it records nothing and
   * lets the caller run the command again.
   */
  | { type: 'GrantApproval'; approvalId: string; checkerId: string; now: string }
  | { type: 'RecordExecution'; approvalId: string; outcome: 'done' | 'refused'; code: string | null; message: string | null; now: string }
  | { type: 'RejectApproval'; approvalId: string; rejectedBy: string; reason: string; now: string }
  /** The expiry job: a pending request past its time expires; anything else records nothing. */
  | { type: 'ExpireApproval'; approvalId: string; now: string };

export const APPROVAL_MESSAGES = {
  notFound: 'Approval request not found',
  ownRequest: 'You made this request: a different admin must approve it (four eyes).',
  decided: (status: ApprovalStatus) => `This request is already ${status}.`,
  expired: `This request expired ${APPROVAL_TTL_HOURS} hours after it was made; nothing was done. Make it again if it is still needed.`,
} as const;

const TTL_MS = APPROVAL_TTL_HOURS * 3600_000;

/** Granted, its command never recorded as run, and the grant old enough to say it stopped. */
export function executionStopped(state: ApprovalState, now: string): boolean {
  return state.exists && state.status === 'approved' && !state.executed && state.grantedAt !== null && Date.parse(now) - Date.parse(state.grantedAt) >= EXECUTION_RESUME_AFTER_MS;
}

function existing(state: ApprovalState) {
  if (!state.exists) throw new DomainError(404, 'APPROVAL_NOT_FOUND', APPROVAL_MESSAGES.notFound);
  return state;
}

/** Still waiting, and not past its time at `now` (the expiry job may not have run yet: the time decides, not the job). */
function open(state: ApprovalState, now: string) {
  const approval = existing(state);
  if (approval.status !== 'pending') throw new DomainError(409, 'APPROVAL_ALREADY_DECIDED', APPROVAL_MESSAGES.decided(approval.status), { status: approval.status });
  if (Date.parse(now) >= Date.parse(approval.expiresAt)) throw new DomainError(409, 'APPROVAL_EXPIRED', APPROVAL_MESSAGES.expired, { expiresAt: approval.expiresAt });
  return approval;
}

export const approvalDecider: Decider<ApprovalState, ApprovalDecision, ApprovalEvent> = {
  initialState: () => ({ exists: false }),
  evolve(state, event) {
    switch (event.type) {
      case 'ApprovalRequested': {
        const { approvalId, command, makerId, reason, requestedAt, expiresAt } = event.data;
        return { exists: true, approvalId, command, makerId, reason, requestedAt, expiresAt, status: 'pending', checkerId: null, grantedAt: null, executed: false };
      }
      case 'ApprovalGranted':
        return state.exists ? { ...state, status: 'approved', checkerId: event.data.checkerId, grantedAt: event.data.grantedAt } : state;
      case 'ApprovalExecuted':
        return state.exists ? { ...state, executed: true } : state;
      case 'ApprovalRejected':
        return state.exists ? { ...state, status: 'rejected', checkerId: event.data.rejectedBy } : state;
      case 'ApprovalExpired':
        return state.exists ? { ...state, status: 'expired' } : state;
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'RequestApproval': {
        // A retry of the same request (same id) records nothing more.
        if (state.exists) return [];
        const { approvalId, makerId, reason, now } = command;
        const expiresAt = new Date(Date.parse(now) + TTL_MS).toISOString();
        return [{ type: 'ApprovalRequested', data: { approvalId, command: command.command, makerId, reason, requestedAt: now, expiresAt } }];
      }
      case 'GrantApproval': {
        const approval = existing(state);
        if (approval.makerId === command.checkerId) throw new DomainError(403, 'OWN_APPROVAL_REQUEST', APPROVAL_MESSAGES.ownRequest);
        // Already granted once: nothing more is recorded; the caller carries out the stopped command.
        if (executionStopped(state, command.now)) return [];
        open(state, command.now);
        return [{ type: 'ApprovalGranted', data: { approvalId: command.approvalId, checkerId: command.checkerId, grantedAt: command.now } }];
      }
      case 'RecordExecution': {
        const approval = existing(state);
        if (approval.status !== 'approved' || approval.executed) return [];
        const { approvalId, outcome, code, message, now } = command;
        return [{ type: 'ApprovalExecuted', data: { approvalId, outcome, code, message, executedAt: now } }];
      }
      case 'RejectApproval': {
        open(state, command.now);
        return [{ type: 'ApprovalRejected', data: { approvalId: command.approvalId, rejectedBy: command.rejectedBy, reason: command.reason, rejectedAt: command.now } }];
      }
      case 'ExpireApproval': {
        if (!state.exists || state.status !== 'pending' || Date.parse(command.now) < Date.parse(state.expiresAt)) return [];
        return [{ type: 'ApprovalExpired', data: { approvalId: command.approvalId, expiredAt: command.now } }];
      }
    }
  },
};

/** Stream settings-approvals: which commands need a second admin, and the thresholds. */
export type ApprovalSettingsEvent = EventOf<'ApprovalSettingsChanged'>;

export const approvalSettingsDecider: Decider<{ settings: ApprovalSettings }, { type: 'SetApprovalSettings'; settings: ApprovalSettings; now: string }, ApprovalSettingsEvent> = {
  initialState: () => ({ settings: DEFAULT_APPROVAL_SETTINGS }),
  evolve: (_state, event) => ({ settings: event.data.settings }),
  decide(command, state) {
    if (JSON.stringify(state.settings) === JSON.stringify(command.settings)) return [];
    return [{ type: 'ApprovalSettingsChanged', data: { settings: command.settings, changedAt: command.now } }];
  },
};

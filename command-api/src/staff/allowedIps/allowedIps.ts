import type { EventOf } from '@honeylend/contracts';
import { DomainError, type Decider } from '../../platform/commands/decider.js';
import { rulesCover } from '../../platform/http/addressRules.js';

/** Stream settings-admin-ips: the addresses that may reach the management panel (none = any). */
export type AllowedIpEvent = EventOf<'AllowedIpAdded' | 'AllowedIpRemoved'>;

export interface AllowedIpRule {
  ruleId: string;
  ipAddress: string;
  description: string;
}

export interface AllowedIpsState {
  rules: AllowedIpRule[];
}

export type AllowedIpCommand =
  /** `ipAddress` is canonical (parseAddressRule); `callerAddress` is where the superadmin is now. */
  { type: 'AddAllowedIp'; ruleId: string; ipAddress: string; description: string; callerAddress: string; now: string } | { type: 'RemoveAllowedIp'; ruleId: string; callerAddress: string; now: string };

/** Refuses a rule set that would shut out the admin changing it: they could never undo the mistake. */
function assertCallerStaysIn(rules: AllowedIpRule[], callerAddress: string): void {
  if (
    rules.length === 0 ||
    rulesCover(
      rules.map((rule) => rule.ipAddress),
      callerAddress,
    )
  )
    return;
  throw new DomainError(409, 'SELF_LOCKOUT', `This would lock you out: your current address (${callerAddress}) would no longer be allowed. Add a rule that covers it first.`, { clientAddress: callerAddress });
}

export const allowedIpsDecider: Decider<AllowedIpsState, AllowedIpCommand, AllowedIpEvent> = {
  initialState: () => ({ rules: [] }),
  evolve: (state, event) =>
    event.type === 'AllowedIpAdded'
      ? { rules: [...state.rules, { ruleId: event.data.ruleId, ipAddress: event.data.ipAddress, description: event.data.description }] }
      : { rules: state.rules.filter((rule) => rule.ruleId !== event.data.ruleId) },
  decide: (command, state) => {
    if (command.type === 'AddAllowedIp') {
      if (state.rules.some((rule) => rule.ipAddress === command.ipAddress)) {
        throw new DomainError(409, 'ALLOWED_IP_EXISTS', `${command.ipAddress} is already on the allow-list.`);
      }
      const { ruleId, ipAddress, description, now } = command;
      assertCallerStaysIn([...state.rules, { ruleId, ipAddress, description }], command.callerAddress);
      return [{ type: 'AllowedIpAdded', data: { ruleId, ipAddress, description, addedAt: now } }];
    }
    const rule = state.rules.find((candidate) => candidate.ruleId === command.ruleId);
    if (!rule) throw new DomainError(404, 'ALLOWED_IP_NOT_FOUND', 'This address is not on the allow-list.');
    assertCallerStaysIn(
      state.rules.filter((candidate) => candidate.ruleId !== command.ruleId),
      command.callerAddress,
    );
    return [{ type: 'AllowedIpRemoved', data: { ruleId: rule.ruleId, ipAddress: rule.ipAddress, removedAt: command.now } }];
  },
};

import type { ProfileChanges } from '@honeylend/contracts';
import { DomainError, type Decider } from '../domain/decider.js';
import { evolveMember, initialMemberState, type MemberEvent, type MemberState } from './member.js';

export type MemberCommand =
  | {
      type: 'RegisterMember';
      memberId: string;
      phone: string;
      fullName: string;
      email: string | null;
      passwordHash: string;
      registeredBy: 'self' | 'admin';
      now: string;
    }
  | { type: 'UpdateProfile'; memberId: string; changes: ProfileChanges; now: string };

export function decideMember(command: MemberCommand, state: MemberState): MemberEvent[] {
  switch (command.type) {
    case 'RegisterMember': {
      if (state.exists) throw new DomainError(409, 'ALREADY_REGISTERED', 'You already have an account, please login', { alreadyRegistered: true });
      return [
        {
          type: 'MemberRegistered',
          data: {
            memberId: command.memberId,
            phone: command.phone,
            fullName: command.fullName,
            email: command.email,
            passwordHash: command.passwordHash,
            registeredAt: command.now,
            registeredBy: command.registeredBy,
          },
        },
      ];
    }
    case 'UpdateProfile': {
      if (!state.exists) throw new DomainError(404, 'MEMBER_NOT_FOUND', 'Account not found');
      if (state.status === 'suspended') {
        throw new DomainError(403, 'ACCOUNT_SUSPENDED', 'Your account has been suspended. Please contact support.');
      }
      // Only what really changes is recorded, so the audit trail shows edits, not re-saves.
      const changes: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(command.changes)) {
        if (value !== undefined && state.profile[field as keyof ProfileChanges] !== value) changes[field] = value;
      }
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'MemberProfileUpdated', data: { memberId: command.memberId, changes, updatedAt: command.now } }];
    }
  }
}

export const memberDecider: Decider<MemberState, MemberCommand, MemberEvent> = {
  initialState: initialMemberState,
  evolve: evolveMember,
  decide: decideMember,
};

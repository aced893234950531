import type { EventData, MemberStatus, ProfileChanges } from '@honeylend/contracts';

export type MemberEvent =
  | { type: 'MemberRegistered'; data: EventData<'MemberRegistered'> }
  | { type: 'MemberProfileUpdated'; data: EventData<'MemberProfileUpdated'> };

export type Profile = Required<{ [K in keyof ProfileChanges]: ProfileChanges[K] | null }>;

export type MemberState =
  | { exists: false }
  | {
      exists: true;
      memberId: string;
      phone: string;
      passwordHash: string;
      status: MemberStatus;
      tokenVersion: number;
      profile: Profile;
    };

export const initialMemberState = (): MemberState => ({ exists: false });

export function evolveMember(state: MemberState, event: MemberEvent): MemberState {
  switch (event.type) {
    case 'MemberRegistered':
      return {
        exists: true,
        memberId: event.data.memberId,
        phone: event.data.phone,
        passwordHash: event.data.passwordHash,
        status: 'active',
        tokenVersion: 0,
        profile: {
          fullName: event.data.fullName,
          email: event.data.email,
          address: null,
          countryOfWork: null,
          monthlySalaryCentavos: null,
          referenceName: null,
          referencePhone: null,
          bankName: null,
          bankAccountNumber: null,
        },
      };
    case 'MemberProfileUpdated':
      if (!state.exists) return state;
      return { ...state, profile: { ...state.profile, ...event.data.changes } };
  }
}

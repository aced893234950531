import { memberStatusSchema, type MemberStatus } from '@honeylend/contracts';

export const MEMBER_STATUSES = memberStatusSchema.options;

export const MEMBER_STATUS_COLOURS: Record<MemberStatus, string> = { active: 'green', pending: 'gold', suspended: 'red' };

/** Spec §4: the toggle turns active into suspended and any other status into active. */
export function toggledStatus(status: MemberStatus): { next: MemberStatus; verb: 'Activate' | 'Deactivate' } {
  return status === 'active' ? { next: 'suspended', verb: 'Deactivate' } : { next: 'active', verb: 'Activate' };
}

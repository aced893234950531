import { toAdminMemberAnswer, toAdminOtpStatus, type AdminMemberAnswer, type AdminOtpStatus, type MemberDoc } from '@honeylend/contracts';
import { readOtpDeliveryStatus } from '@honeylend/contracts/server';
import { ApiError } from '../../platform/errors/apiError.js';
import type { ApiDeps } from '../../platform/context/context.js';
import type { PersonalDataView } from '../../staff/personalData/personalDataView.js';

/**
 * The OTP column: the last delivery as the workers recorded it, and the attempts left on the
 * live code. Only those two fields of the challenge are read; its code hash never leaves Redis.
 */
export async function otpStatusOf(deps: ApiDeps, memberId: string): Promise<AdminOtpStatus | null> {
  const [delivery, [attemptsLeft, expiresAt]] = await Promise.all([readOtpDeliveryStatus(deps.redis, deps.jobs.keys, memberId), deps.redis.hmget(deps.jobs.keys.otpChallenge(memberId), 'attemptsLeft', 'expiresAt')]);
  const expiresAtMs = Number(expiresAt);
  const live = attemptsLeft !== null && expiresAtMs > deps.now().getTime() ? { attemptsLeft: Number(attemptsLeft), expiresAt: new Date(expiresAtMs).toISOString() } : null;
  return toAdminOtpStatus(delivery, live);
}

/** `view` masks personal data for an auditor; without one (an admin's own command) nothing is masked. */
export async function adminMemberAnswer(deps: ApiDeps, doc: MemberDoc, view?: PersonalDataView): Promise<AdminMemberAnswer> {
  return toAdminMemberAnswer(view ? view.member(doc) : doc, (fileId) => deps.signedFileUrls.urlFor(fileId), await otpStatusOf(deps, doc.id), deps.privacyNoticeVersion);
}

/** The member as the read models hold it now, for staff; 404 for an unknown or closed account. */
export async function loadAdminMember(deps: ApiDeps, memberId: string, view?: PersonalDataView): Promise<AdminMemberAnswer> {
  const doc = await deps.readModels.member(memberId);
  if (!doc) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Member not found');
  return adminMemberAnswer(deps, doc, view);
}

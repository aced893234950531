import type { UserAnswer } from '@honeylend/contracts';
import { apiRequest } from '../../shared/api';
import { endingSession } from '../account/accountSecurity';
import { useSession } from '../stores/session';
import { saveBlob } from '../../shared/downloadFile';

/** The privacy notice in force (RA 10173), as GET /api/privacy-notice answers it. */
export interface PrivacyNoticeAnswer {
  version: string;
  text: string;
  dataProtectionOfficer: string | null;
}

let notice: Promise<PrivacyNoticeAnswer> | null = null;

/** Tests: the notice as if already fetched (null: fetch it again). */
export function primePrivacyNotice(answer: PrivacyNoticeAnswer | null): void {
  notice = answer ? Promise.resolve(answer) : null;
}

/** The notice, fetched once per visit (a failed fetch is tried again next time). */
export function loadPrivacyNotice(): Promise<PrivacyNoticeAnswer> {
  notice ??= apiRequest<PrivacyNoticeAnswer>('/api/privacy-notice').catch((error: unknown) => {
    notice = null;
    throw error;
  });
  return notice;
}

export function giveConsent(noticeVersion: string): Promise<UserAnswer> {
  return apiRequest<UserAnswer>('/api/user/consent', { method: 'POST', body: { noticeVersion } });
}

/** Everything Honeylend holds about the member, as the JSON text the server sends. */
export async function exportMyData(): Promise<string> {
  const data = await apiRequest<unknown>('/api/user/export', { cache: 'no-store' });
  return JSON.stringify(data, null, 2);
}

/** Saves text as a file on the member's device, at once. */
export function saveFile(text: string, fileName: string, type = 'application/json'): void {
  saveBlob(new Blob([text], { type }), fileName);
}

export interface ClosureObligation {
  kind: 'loan' | 'withdrawal' | 'wallet';
  message: string;
}

export interface AccountClosed {
  success: true;
  message: string;
}

/** Closes the account: on success this session ends at once, saying why (before the socket's "revoked" is looked at). */
export function requestClosure(reason: string): Promise<AccountClosed> {
  return endingSession(
    apiRequest<AccountClosed>('/api/user/closure-request', { method: 'POST', body: { reason } }).then((closed) => {
      useSession.getState().endSession('Account closed', closed.message);
      return closed;
    }),
  );
}

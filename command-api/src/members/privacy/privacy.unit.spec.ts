import { describe, expect, it } from 'vitest';
import { given } from '../../platform/commands/testing/givenWhenThen.js';
import { memberDecider } from '../decide.js';
import { evolveMember, initialMemberState, type MemberEvent } from '../member.js';
import { privacyNotice } from './privacyNotice.js';

const memberId = '5f0c6a52-3d8e-4f57-a7f4-0d6e4c1b9a01';
const loanId = '11111111-2222-4333-8444-555555555555';
const withdrawalId = 'd0d0d0d0-0000-4000-8000-000000000001';
const challengeId = 'c0c0c0c0-0000-4000-8000-000000000001';
const fileIds = ['a1a1a1a1-0000-4000-8000-000000000001', 'a1a1a1a1-0000-4000-8000-000000000002', 'a1a1a1a1-0000-4000-8000-000000000003'];
const now = '2026-11-25T08:00:00.000Z';
const later = '2026-11-26T08:00:00.000Z';

const registered: MemberEvent = {
  type: 'MemberRegistered',
  data: { memberId, phone: '+639171234567', fullName: 'Maria Santos', email: null, passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA', registeredAt: now, registeredBy: 'self' },
};
const verifiedWithoutConsent: MemberEvent[] = [
  registered,
  { type: 'MemberProfileUpdated', data: { memberId, changes: { address: '123 Rizal Avenue, Manila', monthlySalaryCentavos: 2_500_000, bankName: 'BPI', bankAccountNumber: '1234567890' }, updatedAt: now } },
  ...fileIds.map((fileId): MemberEvent => ({ type: 'DocumentUploaded', data: { memberId, fileId, contentType: 'image/png', sizeBytes: 1024, sha256: 'a'.repeat(64), uploadedBy: memberId, uploadedAt: now } })),
  ...(['idFront', 'idBack', 'selfie'] as const).map((kind, i): MemberEvent => ({ type: 'IdentityDocumentSet', data: { memberId, kind, fileId: fileIds[i], setAt: now } })),
  { type: 'MemberPhoneVerified', data: { memberId, phone: '+639171234567', verifiedAt: now } },
];
const consented = (noticeVersion: string, givenAt = now): MemberEvent => ({ type: 'ConsentGiven', data: { memberId, noticeVersion, givenAt } });
const opened: MemberEvent = { type: 'LoanApplicationOpened', data: { memberId, loanId, openedAt: now } };
const apply = (privacyNoticeVersion: string) => ({ type: 'OpenLoanApplication' as const, memberId, loanId, privacyNoticeVersion, now });
const closeRequest = (reason = 'I no longer need the account') => ({ type: 'RequestClosure' as const, memberId, reason, now: later });
const stateAfter = (events: MemberEvent[]) => events.reduce(evolveMember, initialMemberState());

describe('consent to the privacy notice (RA 10173 sec. 12)', () => {
  it('records consent to the notice in force', () => {
    given(memberDecider, [registered])
      .when({ type: 'GiveConsent', memberId, noticeVersion: 'v1', currentVersion: 'v1', now })
      .then([consented('v1')]);
  });
  it('refuses consent to a notice that is no longer in force: the member must read the new one', () => {
    given(memberDecider, [registered]).when({ type: 'GiveConsent', memberId, noticeVersion: 'v1', currentVersion: 'v2', now }).thenThrows('NOTICE_CHANGED');
  });
  it('records nothing when the member already consented to this version', () => {
    given(memberDecider, [registered, consented('v1')])
      .when({ type: 'GiveConsent', memberId, noticeVersion: 'v1', currentVersion: 'v1', now })
      .then([]);
  });
  it('records consent again to a changed notice', () => {
    given(memberDecider, [registered, consented('v1')])
      .when({ type: 'GiveConsent', memberId, noticeVersion: 'v2', currentVersion: 'v2', now: later })
      .then([consented('v2', later)]);
  });
  it('refuses a loan application without consent: 403 CONSENT_REQUIRED', () => {
    given(memberDecider, verifiedWithoutConsent).when(apply('v1')).thenThrows('CONSENT_REQUIRED', 'Please read and accept our privacy notice before applying for a loan.');
  });
  it('refuses a loan application when the member consented only to an older notice', () => {
    given(memberDecider, [...verifiedWithoutConsent, consented('v1')])
      .when(apply('v2'))
      .thenThrows('CONSENT_REQUIRED');
  });
  it('opens the application once the member consented to the notice in force', () => {
    given(memberDecider, [...verifiedWithoutConsent, consented('v2')])
      .when(apply('v2'))
      .then([opened]);
  });
});

describe('closing the account and stopping processing (RA 10173 sec. 16(e))', () => {
  const funded: MemberEvent = { type: 'LoanDisbursed', data: { memberId, loanId, amountCentavos: 500_000, disbursedAt: now } };
  const withdrawn: MemberEvent = {
    type: 'WithdrawalRequested',
    data: { memberId, withdrawalId, withdrawalNumber: 'WD-2026-000001', amountCentavos: 500_000, bankName: 'BPI', bankAccountNumber: '1234567890', challengeId, requestedAt: now },
  };
  const paidOut: MemberEvent = { type: 'WithdrawalCompleted', data: { memberId, withdrawalId, processedAt: now } };
  const loanClosed: MemberEvent = { type: 'LoanApplicationClosed', data: { memberId, loanId, closing: 'completed', closedAt: now } };

  it('closes an account with nothing owed or held: the request, then the closure', () => {
    given(memberDecider, [registered, consented('v1')])
      .when(closeRequest())
      .then([
        { type: 'MemberClosureRequested', data: { memberId, reason: 'I no longer need the account', obligations: [], requestedAt: later } },
        { type: 'MemberAccountClosed', data: { memberId, closedAt: later, loanIds: [], withdrawalIds: [] } },
      ]);
  });
  it('closes an account whose loan is repaid and whose money was paid out, naming them for the read models to mask', () => {
    given(memberDecider, [...verifiedWithoutConsent, consented('v1'), opened, funded, withdrawn, paidOut, loanClosed])
      .when(closeRequest())
      .then([
        { type: 'MemberClosureRequested', data: { memberId, reason: 'I no longer need the account', obligations: [], requestedAt: later } },
        { type: 'MemberAccountClosed', data: { memberId, closedAt: later, loanIds: [loanId], withdrawalIds: [withdrawalId] } },
      ]);
  });
  it('records a refused request listing every obligation: an open loan, a pending withdrawal, money in the wallet', () => {
    const refill: MemberEvent = { type: 'BalanceAdjusted', data: { memberId, adjustmentId: 'e0e0e0e0-0000-4000-8000-000000000001', amountCentavos: 12_345, reason: 'goodwill credit', adjustedAt: now } };
    given(memberDecider, [...verifiedWithoutConsent, consented('v1'), opened, funded, withdrawn, refill])
      .when(closeRequest())
      .then([
        {
          type: 'MemberClosureRequested',
          data: {
            memberId,
            reason: 'I no longer need the account',
            obligations: [
              { kind: 'loan', loanId },
              { kind: 'withdrawal', withdrawalId },
              { kind: 'wallet', balanceCentavos: 12_345 },
            ],
            requestedAt: later,
          },
        },
      ]);
  });
  it('refuses a request made with a token older than the account (signed out everywhere since)', () => {
    given(memberDecider, [registered, { type: 'MemberSignedOutEverywhere', data: { memberId, signedOutAt: now } }])
      .when({ ...closeRequest(), tokenVersion: 0 })
      .thenThrows('UNAUTHORIZED');
  });
  const closed: MemberEvent[] = [
    registered,
    consented('v1'),
    { type: 'MemberClosureRequested', data: { memberId, reason: 'moving abroad', obligations: [], requestedAt: now } },
    { type: 'MemberAccountClosed', data: { memberId, closedAt: now, loanIds: [], withdrawalIds: [] } },
  ];
  it('ends every session: the token version moves on', () => {
    const before = stateAfter([registered]);
    const after = stateAfter(closed);
    expect(before.exists && after.exists && after.tokenVersion).toBe(before.exists ? before.tokenVersion + 1 : NaN);
  });
  it('processes nothing more for a closed account: no consent, profile change, loan, second closure or admin edit', () => {
    given(memberDecider, closed).when({ type: 'GiveConsent', memberId, noticeVersion: 'v1', currentVersion: 'v1', now: later }).thenThrows('ACCOUNT_CLOSED');
    given(memberDecider, closed)
      .when({ type: 'UpdateProfile', memberId, changes: { address: 'Cebu City' }, now: later })
      .thenThrows('ACCOUNT_CLOSED');
    given(memberDecider, closed).when(apply('v1')).thenThrows('ACCOUNT_CLOSED');
    given(memberDecider, closed).when(closeRequest()).thenThrows('ACCOUNT_CLOSED');
    given(memberDecider, closed)
      .when({ type: 'AdminUpdateMember', memberId, changes: { fullName: 'Someone Else' }, now: later })
      .thenThrows('ACCOUNT_CLOSED');
    given(memberDecider, closed).when({ type: 'AdjustBalance', memberId, adjustmentId: 'e0e0e0e0-0000-4000-8000-000000000002', amountCentavos: 100, reason: 'a test credit', now: later }).thenThrows('ACCOUNT_CLOSED');
  });
});

describe('the privacy notice', () => {
  it('says what is collected, why, for how long the law keeps records, and the rights', () => {
    const { text, version, dataProtectionOfficer } = privacyNotice(null, 'v9');
    expect(version).toBe('v9');
    expect(text).toContain('version v9');
    for (const phrase of ['Republic Act No. 10173', 'monthly salary', 'government ID', '5 years', 'Anti-Money Laundering Act', 'Download my data', 'Close my account', 'National Privacy Commission']) {
      expect(text).toContain(phrase);
    }
    // No invented contact while the lender has not published its details.
    expect(dataProtectionOfficer).toBeNull();
  });
  it('names the lender and its contact as data protection officer once the company details are set', () => {
    const company = {
      companyName: 'Honeylend Lending Corporation',
      secRegistrationNumber: 'CS201912345',
      certificateOfAuthorityNumber: '3012',
      dateRegistered: '2019-05-01',
      status: 'Registered',
      address: '88 Ayala Avenue, Makati City',
      contact: 'privacy@honeylend.ph',
    };
    const notice = privacyNotice(company, 'v1');
    expect(notice.dataProtectionOfficer).toBe('Data Protection Officer, Honeylend Lending Corporation, 88 Ayala Avenue, Makati City — privacy@honeylend.ph');
    expect(notice.text).toContain('Honeylend Lending Corporation (SEC Registration No. CS201912345, Certificate of Authority No. 3012)');
    expect(notice.text).toContain('privacy@honeylend.ph');
  });
});

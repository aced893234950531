import { describe, expect, it } from 'vitest';
import { profileUpdateBody } from '@honeylend/contracts';
import { toApiError } from '../../platform/http/errorHandling.js';
import { adminMemberUpdateBody } from '../../members/staff/adminMemberBodies.js';
import { adminLoanUpdateBody } from '../../lending/staff/adminLoanBodies.js';
import { notificationBody } from '../../members/notifications/adminNotificationRoutes.js';
import { decisionBody } from './adminWithdrawalRoutes.js';

/** What the API answers for a body the schema refuses (or null when it takes it). */
function refusalOf(schema: { safeParse(value: unknown): { success: boolean; error?: unknown } }, body: unknown) {
  const parsed = schema.safeParse(body);
  return parsed.success ? null : toApiError(parsed.error).toBody();
}

/**
 * Rules a handler used to enforce on a body's own fields, now in the body's schema: the API
 * reference, the fuzzing check (which judges validity by the schema) and the handler agree.
 */
describe('PUT /api/admin/loans/:id body', () => {
  it('must change something: a status, or an amount and term', () => {
    expect(refusalOf(adminLoanUpdateBody, {})).toMatchObject({ code: 'VALIDATION_FAILED', details: { fields: { status: 'Send a status, or an amount and term' } } });
    expect(refusalOf(adminLoanUpdateBody, { message: 'hello' })).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(refusalOf(adminLoanUpdateBody, { status: 'denied' })).toBeNull();
    expect(refusalOf(adminLoanUpdateBody, { termMonths: 12 })).toBeNull();
  });

  it('account_issue needs a message (MESSAGE_REQUIRED)', () => {
    expect(refusalOf(adminLoanUpdateBody, { status: 'account_issue', message: '' })).toMatchObject({ code: 'MESSAGE_REQUIRED' });
    expect(refusalOf(adminLoanUpdateBody, { status: 'account_issue', message: 'Upload a clearer ID' })).toBeNull();
  });

  it('no status message, notification title or text may ask the borrower for money (MONEY_REQUEST, on its field)', () => {
    const scam = 'Please pay a processing fee to my GCash account to release your loan';
    expect(refusalOf(adminLoanUpdateBody, { status: 'approved', message: scam })).toMatchObject({ code: 'MONEY_REQUEST', details: { fields: { message: expect.any(String) } } });
    expect(refusalOf(adminLoanUpdateBody, { status: 'approved', notify: { message: scam } })).toMatchObject({ code: 'MONEY_REQUEST', details: { fields: { 'notify.message': expect.any(String) } } });
    expect(refusalOf(adminLoanUpdateBody, { status: 'approved', message: 'Approved: the money is in your wallet' })).toBeNull();
  });
});

describe('PUT /api/admin/users/:id body', () => {
  it('refuses a password, plainPassword or OTP code with where to go instead (FIELD_NOT_EDITABLE); empty ones are fine', () => {
    expect(refusalOf(adminMemberUpdateBody, { plainPassword: 'NewPass#2026' })).toMatchObject({
      code: 'FIELD_NOT_EDITABLE',
      details: { fields: { plainPassword: expect.stringContaining('password-reset') } },
    });
    expect(refusalOf(adminMemberUpdateBody, { otpCode: '123456' })).toMatchObject({ code: 'FIELD_NOT_EDITABLE' });
    expect(refusalOf(adminMemberUpdateBody, { password: '', plainPassword: null, fullName: 'Maria Clara' })).toBeNull();
    // What the handler is handed never carries them.
    expect(adminMemberUpdateBody.parse({ password: '', fullName: 'Maria Clara' })).not.toHaveProperty('password');
  });

  it('takes as a document only the url (or file id) an upload answers, here and on the borrower’s own profile', () => {
    const upload = '/api/files/0b7c4c1e-3f7a-4b8e-9a51-2f6d1c0e8a11?expires=1893456000&sig=abc';
    for (const schema of [adminMemberUpdateBody, profileUpdateBody]) {
      expect(refusalOf(schema, { idFrontUrl: 'https://elsewhere.example/id.png' })).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { fields: { idFrontUrl: 'Upload the document first, then send the url it answered' } },
      });
      expect(refusalOf(schema, { idFrontUrl: upload, selfieUrl: '0b7c4c1e-3f7a-4b8e-9a51-2f6d1c0e8a11' })).toBeNull();
    }
  });
});

describe('POST /api/admin/notifications body', () => {
  const member = '0b7c4c1e-3f7a-4b8e-9a51-2f6d1c0e8a11';
  it('a title or message asking the borrower for money is MONEY_REQUEST on its field, with the message the handler used to give', () => {
    const scam = 'Pay a release fee to GCash 0917 123 4567 first';
    expect(refusalOf(notificationBody, { userId: member, title: 'Loan update', message: scam })).toEqual({
      code: 'MONEY_REQUEST',
      message: expect.stringMatching(/^A message to a member may not ask the borrower to pay, deposit or send money \(it reads as .+\)\. Honeylend never asks borrowers for money this way\.$/),
      details: { fields: { message: expect.stringContaining('A message to a member may not ask') } },
    });
    expect(refusalOf(notificationBody, { userId: member, title: 'Deposit needed', message: 'Hello' })).toMatchObject({ code: 'MONEY_REQUEST', details: { fields: { title: expect.any(String) } } });
    expect(refusalOf(notificationBody, { userId: member, title: 'Welcome', message: 'Your documents are verified. Thank you!' })).toBeNull();
  });
});

describe('PUT /api/admin/withdrawals/:id body', () => {
  it('a rejection reason or payout reference asking for money is MONEY_REQUEST on its field', () => {
    expect(refusalOf(decisionBody, { status: 'rejected', reason: 'Send the processing fee to my GCash first' })).toMatchObject({
      code: 'MONEY_REQUEST',
      message: expect.stringContaining('A rejection reason may not ask the borrower'),
      details: { fields: { reason: expect.any(String) } },
    });
    expect(refusalOf(decisionBody, { status: 'rejected', reason: 'The bank account name does not match' })).toBeNull();
    expect(refusalOf(decisionBody, { status: 'completed' })).toBeNull();
    expect(refusalOf(decisionBody, { status: 'completed', payoutReference: 'INSTAPAY 20261122123456' })).toBeNull();
    expect(refusalOf(decisionBody, { status: 'completed', payoutReference: 'pay release fee GCash 09171234567' })).toMatchObject({
      code: 'MONEY_REQUEST',
      details: { fields: { payoutReference: expect.any(String) } },
    });
  });
});

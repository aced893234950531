import { describe, expect, it } from 'vitest';
import { maskAuditEvent, maskEmail, maskEventData, maskIp, maskMemberDoc, maskName, maskPersonalFields, maskStreamName, memberOfEvent } from './personalData.js';
import type { MemberDoc } from '../readModels.js';

const member: MemberDoc = {
  id: 'b4fcb66f-e4ab-433b-93c5-e00ad7492e6f',
  phone: '+639171234567',
  fullName: 'Rosario Dimaculangan',
  email: 'rosario@example.ph',
  address: '45 Mabini Street, Cebu City',
  countryOfWork: 'Philippines',
  monthlySalaryCentavos: 4_200_000,
  referenceName: 'Pedro Villanueva',
  referencePhone: '09181234567',
  bankName: 'BPI',
  bankAccountNumber: '109876543210',
  balanceCentavos: 7_850_050,
  creditScore: 720,
  status: 'active',
  documents: { idFront: 'f1', idBack: 'f2', selfie: 'f3' },
  createdAt: '2026-11-23T08:00:00.000Z',
  updatedAt: '2026-11-23T09:00:00.000Z',
  version: 42,
};

describe('masking members’ personal data for auditors', () => {
  it('keeps a name’s initial, the last four digits, an email’s domain, and nothing of an address or documents', () => {
    expect(maskMemberDoc(member)).toEqual({
      ...member,
      fullName: 'R.',
      phone: '••••4567',
      email: 'r••••@example.ph',
      address: '••••',
      referenceName: 'P.',
      referencePhone: '••••4567',
      bankAccountNumber: '••••3210',
      documents: { idFront: null, idBack: null, selfie: null },
    });
  });

  it('masks the same fields wherever they sit in event data, free text to the member, and both numbers of a phone change', () => {
    expect(maskEventData('MemberRegistered', { memberId: member.id, phone: member.phone, fullName: member.fullName, email: null })).toEqual({
      memberId: member.id,
      phone: '••••4567',
      fullName: 'R.',
      email: null,
    });
    expect(maskEventData('MemberProfileUpdated', { changes: { address: 'x', bankName: 'BPI', monthlySalaryCentavos: 1 } })).toEqual({ changes: { address: '••••', bankName: 'BPI', monthlySalaryCentavos: 1 } });
    expect(maskEventData('MemberNotified', { title: 'Hello Rosario', message: 'For Rosario', type: 'general' })).toEqual({ title: '••••', message: '••••', type: 'general' });
    expect(maskEventData('MemberPhoneChanged', { from: '+639171234567', to: '+639189876543' })).toEqual({ from: '••••4567', to: '••••6543' });
    expect(maskEventData('BalanceAdjusted', { amountCentavos: -2_500, reason: 'Reversal of a duplicate credit' })).toEqual({ amountCentavos: -2_500, reason: 'Reversal of a duplicate credit' });
    // A phone change waiting for a second admin (four eyes): both numbers and the edit's personal fields, wherever they sit.
    expect(
      maskEventData('ApprovalRequested', {
        command: { kind: 'phone_change', fromPhone: '+639171234567', phone: '+639189876543', update: { phone: '+639189876543', fullName: 'Rosario Dizon', address: '12 Mabini St' } },
        reason: '',
      }),
    ).toEqual({ command: { kind: 'phone_change', fromPhone: '••••4567', phone: '••••6543', update: { phone: '••••6543', fullName: 'R.', address: '••••' } }, reason: '' });
    expect(maskPersonalFields({ profile: { fullName: 'Ana Cruz', bankAccountNumber: '001234567890' }, balanceCentavos: 5 })).toEqual({
      profile: { fullName: 'A.', bankAccountNumber: '••••7890' },
      balanceCentavos: 5,
    });
  });

  it('masks a phone stream’s name and a member’s own address, and keeps staff addresses', () => {
    expect(maskStreamName('phone-+639171234567')).toBe('phone-••••4567');
    expect(maskStreamName(`member-${member.id}`)).toBe(`member-${member.id}`);
    expect(maskIp('203.0.113.7')).toBe('203.0.113.••••');
    expect(maskIp('2001:db8:85a3:1:2:3:4:5')).toBe('2001:db8:85a3:1:••••');
    const event = (actorId: string) => ({
      stream: `member-${member.id}`,
      revision: 1,
      position: 9,
      type: 'MemberProfileUpdated',
      data: { memberId: member.id, changes: { fullName: 'Rosario D. Cruz' } },
      metadata: { actorId, ip: '203.0.113.7', correlationId: null, causationId: null },
      createdAt: member.createdAt,
    });
    expect(maskAuditEvent(event(member.id))).toMatchObject({ data: { changes: { fullName: 'R.' } }, metadata: { ip: '203.0.113.••••' } });
    expect(maskAuditEvent(event('7d4b1c7e-0000-4000-8000-000000000001')).metadata.ip).toBe('203.0.113.7');
    expect(memberOfEvent(event('x'))).toBe(member.id);
    expect(memberOfEvent({ stream: 'settings-admin-ips', data: {} })).toBeNull();
  });

  it('writes initials and emails of any script', () => {
    expect(maskName('  élodie ')).toBe('É.');
    expect(maskName('😀 Smile')).toBe('😀.');
    expect(maskEmail('not-an-email')).toBe('••••');
  });
});

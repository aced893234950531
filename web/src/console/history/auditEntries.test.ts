import type { AuditEventAnswer } from '@honeylend/contracts';
import { describe, expect, it } from 'vitest';
import { actorLabel, changedFieldLines, eventTypeLabel, newestFirst } from './auditEntries';

function event(position: number, type: string, actorId: string | null, data: Record<string, unknown> = {}): AuditEventAnswer {
  return { stream: 'member-1', revision: position, position, type, data, metadata: { actorId, ip: '203.0.113.7', correlationId: null, causationId: null }, createdAt: '2026-11-23T03:00:00.000Z' };
}

describe('the audit timeline', () => {
  it('names event types in words', () => {
    expect(eventTypeLabel('MemberStatusChanged')).toBe('Member status changed');
    expect(eventTypeLabel('LoanDisbursed')).toBe('Loan disbursed');
  });

  it('lists the changed fields under readable names, pesos for centavo amounts, without ids (issue 22, item 18)', () => {
    expect(changedFieldLines({ memberId: 'm-1', challengeId: 'c-1', from: 'active', to: 'suspended', amountCentavos: 123_456 })).toEqual(['From: active', 'To: suspended', 'Amount: ₱1,234.56']);
  });

  it('names a document by its label, not its code (issue 22, item 18)', () => {
    expect(changedFieldLines({ kind: 'idBack', setAt: '2026-11-23T11:52:10.267Z' })).toEqual(['Kind: ID (back)', 'Set at: Nov 23, 2026, 7:52 PM']);
    expect(changedFieldLines({ kind: 'selfie' })).toEqual(['Kind: Selfie']);
  });

  it('shows times in Manila, rates in percent, an empty value as a dash and nested changes field by field', () => {
    expect(changedFieldLines({ changedAt: '2026-11-23T11:52:10.267Z', monthlyRateBps: 250, message: null, changes: { address: '45 Mabini Street', monthlySalaryCentavos: 4_200_000 } })).toEqual([
      'Changed at: Nov 23, 2026, 7:52 PM',
      'Monthly rate: 2.5%',
      'Message: —',
      'Address: 45 Mabini Street',
      'Monthly salary: ₱42,000.00',
    ]);
  });

  it('says who acted: the member, a named admin, the system, or the id', () => {
    const admins = new Map([['admin-1', 'Main Admin (admin)']]);
    expect(actorLabel(event(1, 'MemberRegistered', 'self'), 'member-1', admins)).toBe('The member');
    expect(actorLabel(event(2, 'ProfileUpdated', 'member-1'), 'member-1', admins)).toBe('The member');
    expect(actorLabel(event(3, 'MemberStatusChanged', 'admin-1'), 'member-1', admins)).toBe('Main Admin (admin)');
    expect(actorLabel(event(4, 'X', null), 'member-1', admins)).toBe('System');
    expect(actorLabel(event(5, 'X', 'admin-9'), 'member-1', admins)).toBe('admin-9');
  });

  it('shows the newest event first (issue 22, item 18)', () => {
    expect(newestFirst([event(2, 'A', null), event(9, 'B', null), event(5, 'C', null)]).map((entry) => entry.type)).toEqual(['B', 'C', 'A']);
  });
});

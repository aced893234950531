import { describe, expect, it } from 'vitest';
import type { MemberDoc, WithdrawalDoc } from '@honeylend/contracts';
import { csvCell, csvIdentifierCell, manilaTimestamp, withdrawalsCsv, withdrawalsCsvFileName } from './withdrawalCsv.js';

describe('withdrawal CSV', () => {
  it('quotes every cell and doubles quotes inside', () => {
    expect(csvCell('Santos, "Maria"')).toBe('"Santos, ""Maria"""');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(1000)).toBe('"1000"');
  });

  it('defuses cells a spreadsheet would run as a formula', () => {
    for (const dangerous of ['=1+1', '+639171234567', '-2+3', '@SUM(A1)', '\t=cmd', '\r=cmd']) expect(csvCell(dangerous).startsWith(`"'`), dangerous).toBe(true);
    expect(csvCell('Maria = Santos')).toBe('"Maria = Santos"');
  });

  it('writes a header and one row per withdrawal, with a byte-order mark and CRLF lines', () => {
    const withdrawal: WithdrawalDoc = {
      id: 'w1',
      memberId: 'm1',
      withdrawalNumber: 'WD-2026-000001',
      amountCentavos: 250_050,
      bankName: 'BPI',
      bankAccountNumber: '1234567890',
      status: 'rejected',
      reason: 'Name mismatch',
      createdAt: '2026-11-22T08:00:00.000Z',
      processedAt: '2026-11-22T09:00:00.000Z',
      version: 1,
    };
    const member = { fullName: 'Maria Santos', phone: '+639171234567', email: null } as MemberDoc;
    const csv = withdrawalsCsv([
      { withdrawal, member },
      { withdrawal, member: null },
    ]);
    expect(csv.startsWith('\uFEFF"Withdrawal number"')).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe('"WD-2026-000001","Maria Santos","=""+639171234567""","","2500.50","BPI","=""1234567890""","rejected","Name mismatch","2026-11-22T16:00:00+08:00","2026-11-22T17:00:00+08:00"');
    expect(lines[2]).toContain('"WD-2026-000001","","",""');
    expect(lines[3]).toBe('');
  });

  it('keeps account numbers and phones as text, leading zero and all (issue 22, item 3)', () => {
    expect(csvIdentifierCell('09175550101')).toBe('"=""09175550101"""');
    expect(csvIdentifierCell('+639175550101')).toBe('"=""+639175550101"""');
    // Anything but digits is written as it is (and defused when it could be a formula).
    expect(csvIdentifierCell('••••0101')).toBe('"••••0101"');
    expect(csvIdentifierCell('=1+1')).toBe(`"'=1+1"`);
    expect(csvIdentifierCell(null)).toBe('""');
  });

  it('writes times as Manila time with the offset, and names the file by the Manila date (issue 22, item 3)', () => {
    expect(manilaTimestamp('2026-11-22T23:30:00.000Z')).toBe('2026-11-23T07:30:00+08:00');
    expect(manilaTimestamp(null)).toBeNull();
    // 07:30 on 23 November in Manila is still 22 November in UTC.
    expect(withdrawalsCsvFileName(new Date('2026-11-22T23:30:00.000Z'))).toBe('withdrawals-2026-11-23.csv');
    expect(withdrawalsCsvFileName(new Date('2026-11-22T15:59:59.000Z'))).toBe('withdrawals-2026-11-22.csv');
  });
});

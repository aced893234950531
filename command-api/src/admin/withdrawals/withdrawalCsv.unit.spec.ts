import { describe, expect, it } from 'vitest';
import type { MemberDoc, WithdrawalDoc } from '@honeylend/contracts';
import { csvCell, withdrawalsCsv } from './withdrawalCsv.js';

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
    const csv = withdrawalsCsv([{ withdrawal, member }, { withdrawal, member: null }]);
    expect(csv.startsWith('\uFEFF"Withdrawal number"')).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe(
      '"WD-2026-000001","Maria Santos","\'+639171234567","","2500.50","BPI","1234567890","rejected","Name mismatch","2026-11-22T08:00:00.000Z","2026-11-22T09:00:00.000Z"',
    );
    expect(lines[2]).toContain('"WD-2026-000001","","",""');
    expect(lines[3]).toBe('');
  });
});

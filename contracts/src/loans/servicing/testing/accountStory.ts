import type { EventData } from '../../../events.js';
import { accountOpening, DEFAULT_LATE_CHARGE_SETTINGS } from '../openAccount.js';
import { evolveLoanAccount, type LoanAccount, type LoanAccountEvent } from '../loanAccount.js';

/**
 * A loan account for tests: ₱120,000 over 12 months at 2.5 % flat, disbursed on 15 January 2026
 * (Manila), so each instalment is ₱13,000.00 (₱10,000 principal, ₱3,000 interest), due on the 15th
 * from March 2026 to February 2027 (the schedule counts from disbursement).
 */
export const LOAN_ID = '3b7a1f52-9c4e-4d1a-8f0e-2a6b5c4d3e21';
export const MEMBER_ID = '5f0c6a52-3d8e-4f57-a7f4-0d6e4c1b9a01';

export function opened(overrides: Partial<{ principalCentavos: number; termMonths: number; monthlyRateBps: number }> = {}): Extract<LoanAccountEvent, { type: 'LoanAccountOpened' }> {
  const data: EventData<'LoanAccountOpened'> = accountOpening(
    {
      loanId: LOAN_ID,
      memberId: MEMBER_ID,
      principalCentavos: overrides.principalCentavos ?? 12_000_000,
      monthlyRateBps: overrides.monthlyRateBps ?? 250,
      termMonths: overrides.termMonths ?? 12,
    },
    DEFAULT_LATE_CHARGE_SETTINGS,
    '2026-01-15',
    '2026-01-15T02:00:00.000Z',
  );
  return { type: 'LoanAccountOpened', data };
}

let repaymentCount = 0;
export function repaid(amountCentavos: number, valueDate: string, options: { repaymentId?: string; businessDate?: string } = {}): Extract<LoanAccountEvent, { type: 'RepaymentReceived' }> {
  repaymentCount += 1;
  const repaymentId = options.repaymentId ?? `00000000-0000-4000-8000-${String(repaymentCount).padStart(12, '0')}`;
  return {
    type: 'RepaymentReceived',
    data: {
      loanId: LOAN_ID,
      memberId: MEMBER_ID,
      repaymentId,
      receiptNumber: `OR-2026-000001-${String(repaymentCount).padStart(3, '0')}`,
      amountCentavos,
      channel: 'gcash',
      source: 'admin',
      reference: `REF-${repaymentId}`,
      valueDate,
      businessDate: options.businessDate ?? valueDate,
      receivedAt: `${options.businessDate ?? valueDate}T04:00:00.000Z`,
    },
  };
}

export function foldAccount(events: LoanAccountEvent[]): LoanAccount {
  const account = events.reduce<LoanAccount | null>(evolveLoanAccount, null);
  if (!account) throw new Error('no LoanAccountOpened in the story');
  return account;
}

import { accountOpening, DEFAULT_LATE_CHARGE_SETTINGS, evolveLoanAccount, type LoanAccount, type RepaymentChannel } from '@honeylend/contracts';

/** The loan and member every fixture account belongs to (those of loanAnswer()). */
export const FIXTURE_LOAN_ID = '0b5f6c7d-2a41-4e8e-9c1d-7a3f2b1c0d9e';
export const FIXTURE_MEMBER_ID = '6f1c2a7e-0d59-4c2f-9a55-1f7d3c1b2e11';

/** A loan account opened on `openedOn` at 2.5 % a month, folded by the server's own rules. */
export function openedAccount(principalCentavos: number, termMonths: number, openedOn: string): LoanAccount {
  const opened = accountOpening({ loanId: FIXTURE_LOAN_ID, memberId: FIXTURE_MEMBER_ID, principalCentavos, monthlyRateBps: 250, termMonths }, DEFAULT_LATE_CHARGE_SETTINGS, openedOn, `${openedOn}T02:00:00.000Z`);
  return evolveLoanAccount(null, { type: 'LoanAccountOpened', data: opened })!;
}

/** The account after one more repayment, valued and recorded on `valueDate`. */
export function withRepayment(account: LoanAccount, repayment: { repaymentId: string; receiptNumber: string; amountCentavos: number; valueDate: string; channel?: RepaymentChannel; reference?: string }): LoanAccount {
  const { repaymentId, receiptNumber, amountCentavos, valueDate, channel = 'wallet', reference = repaymentId } = repayment;
  return evolveLoanAccount(account, {
    type: 'RepaymentReceived',
    data: {
      loanId: FIXTURE_LOAN_ID,
      memberId: FIXTURE_MEMBER_ID,
      repaymentId,
      receiptNumber,
      amountCentavos,
      channel,
      source: channel === 'wallet' ? 'wallet' : 'admin',
      reference,
      valueDate,
      businessDate: valueDate,
      receivedAt: `${valueDate}T02:00:00.000Z`,
    },
  })!;
}

import { evolveLoanAccount, loanPosition, type AllocationLine, type LoanAccount, type LoanDetailAnswer, type PayoffQuoteAnswer, type RepaymentReceiptAnswer } from '@honeylend/contracts';
import { apiRequest } from '../../shared/api';

/** GET /api/loans/:id: the loan with the facts its fold works on. */
export function fetchLoanDetail(loanId: string): Promise<LoanDetailAnswer> {
  return apiRequest<LoanDetailAnswer>(`/api/loans/${loanId}`);
}

export function fetchPayoffQuote(loanId: string): Promise<PayoffQuoteAnswer> {
  return apiRequest<PayoffQuoteAnswer>(`/api/loans/${loanId}/payoff-quote`);
}

/** POST /api/loans/:id/repayments from the wallet; the key makes a retried click the same payment. */
export function payFromWallet(loanId: string, amount: number, idempotencyKey: string): Promise<RepaymentReceiptAnswer> {
  return apiRequest<RepaymentReceiptAnswer>(`/api/loans/${loanId}/repayments`, { method: 'POST', body: { amount }, headers: { 'Idempotency-Key': idempotencyKey } });
}

export type PayChoice = 'next' | 'overdue' | 'payoff' | 'custom';

const centavos = (pesos: number) => Math.round(pesos * 100);

/** The amounts the Pay dialog offers (pesos), from the loan as the fold sees it today; null where there is none. */
export function payAmounts(loan: LoanDetailAnswer): Record<Exclude<PayChoice, 'custom'>, number | null> {
  if (!loan.account) return { next: null, overdue: null, payoff: null };
  const position = loanPosition(loan.account, loan.businessDate > loan.account.today ? loan.businessDate : undefined);
  const overdue = position.instalments.filter((line) => line.status === 'overdue').reduce((sum, line) => sum + line.unpaidPrincipalCentavos + line.unpaidInterestCentavos + line.unpaidPenaltyCentavos, 0);
  return {
    next: position.nextDue ? position.nextDue.amountCentavos / 100 : null,
    overdue: overdue > 0 ? overdue / 100 : null,
    payoff: position.payoff.totalCentavos > 0 ? position.payoff.totalCentavos / 100 : null,
  };
}

/**
 * How a wallet payment of `amount` pesos made today would be allocated, and whether it would
 * close the loan: the server's own fold run on the loan's facts with the payment added.
 */
export function previewAllocation(account: LoanAccount, businessDate: string, amount: number): { allocation: AllocationLine[]; paysOff: boolean; overpaid: number } {
  const repaymentId = '00000000-0000-4000-8000-000000000000';
  const withPayment = evolveLoanAccount(account, {
    type: 'RepaymentReceived',
    data: {
      loanId: account.loanId,
      memberId: account.memberId,
      repaymentId,
      receiptNumber: 'preview',
      amountCentavos: centavos(amount),
      channel: 'wallet',
      source: 'wallet',
      reference: repaymentId,
      valueDate: businessDate,
      businessDate,
      receivedAt: new Date().toISOString(),
    },
  })!;
  const folded = loanPosition(withPayment, businessDate).repayments.find((repayment) => repayment.repaymentId === repaymentId)!;
  return { allocation: folded.allocation, paysOff: folded.paidOff, overpaid: folded.overpaidCentavos / 100 };
}

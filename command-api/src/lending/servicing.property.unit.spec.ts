import fc from 'fast-check';
import { addDays, loanPosition, type LoanPosition } from '@honeylend/contracts';
import { describe, expect, it } from 'vitest';
import { INSTALMENT_CENTAVOS, OPENED_ON, ServicedLoan } from './testing/servicedLoan.js';

/**
 * Money rules of the loan decider and the allocation fold, over generated histories: random
 * repayments (on time, late, back-dated), day closes, waivers and reversals, each decided by the
 * decider exactly as the routes and the day close ask it.
 */

type Step = { kind: 'close'; days: number } | { kind: 'pay'; share: number; backDays: number } | { kind: 'waive'; share: number } | { kind: 'reverse'; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('close' as const), days: fc.integer({ min: 1, max: 45 }) }),
  fc.record({ kind: fc.constant('pay' as const), share: fc.double({ min: 0.001, max: 1, noNaN: true }), backDays: fc.integer({ min: 0, max: 20 }) }),
  fc.record({ kind: fc.constant('waive' as const), share: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('reverse' as const), pick: fc.nat() }),
);

/** Lives a loan through the steps; the business date starts at disbursement and only moves forward. */
function live(steps: Step[]): { loan: ServicedLoan; today: string } {
  const loan = new ServicedLoan();
  let today = OPENED_ON;
  for (const s of steps) {
    if (loan.loan.status === 'completed') break;
    if (s.kind === 'close') {
      today = addDays(today, s.days);
      loan.closeThrough(today);
    } else if (s.kind === 'pay') {
      const payoff = loanPosition(loan.loan.account!, today).payoff.totalCentavos;
      const valueDate = [addDays(today, -s.backDays), OPENED_ON].sort().at(-1)!;
      loan.pay(Math.max(1, Math.round(payoff * s.share)), valueDate, today);
    } else if (s.kind === 'waive') {
      const unpaid = loanPosition(loan.loan.account!, today).outstanding.penaltiesCentavos;
      if (unpaid > 0) loan.waive(Math.max(1, Math.round(unpaid * s.share)), today);
    } else {
      const live = loan.loan.account!.transactions.filter((tx) => tx.kind === 'repayment' && !tx.reversal);
      if (live.length > 0) loan.reverse((live[s.pick % live.length] as { repaymentId: string }).repaymentId, today);
    }
  }
  return { loan, today };
}

const nonNegative = (position: LoanPosition) => {
  const numbers = [
    ...Object.values(position.outstanding),
    ...Object.values(position.payoff),
    position.daysPastDue,
    position.overpaidCentavos,
    ...position.instalments.flatMap((line) => [
      line.penaltyCentavos,
      line.paidCentavos,
      line.unpaidPrincipalCentavos,
      line.unpaidInterestCentavos,
      line.unpaidPenaltyCentavos,
      line.interestForgivenCentavos,
      line.daysPastDue,
    ]),
    ...position.repayments.flatMap((repayment) => repayment.allocation.flatMap((line) => [line.penaltyCentavos, line.interestCentavos, line.principalCentavos])),
  ];
  return numbers.every((value) => Number.isSafeInteger(value) && value >= 0);
};

/** What the borrower owes and has paid, instalment by instalment (what two histories must agree on). */
const owed = (position: LoanPosition) => ({ instalments: position.instalments, outstanding: position.outstanding, payoff: position.payoff, daysPastDue: position.daysPastDue });

// Generous time limits: a few seconds each on a quiet machine, slower on a shared one.
describe('servicing properties', { timeout: 120_000 }, () => {
  it('allocations always add up to the payment, and nothing is ever negative', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 25 }), (steps) => {
        const { loan, today } = live(steps);
        const position = loanPosition(loan.loan.account!, today);
        for (const repayment of position.repayments.filter((r) => !r.reversed)) {
          const allocated = repayment.allocation.reduce((sum, line) => sum + line.penaltyCentavos + line.interestCentavos + line.principalCentavos, 0);
          expect(allocated).toBe(repayment.amountCentavos);
          expect(repayment.overpaidCentavos).toBe(0);
        }
        expect(nonNegative(position)).toBe(true);
        // What came in, less reversals, is exactly what the instalments were paid.
        expect(position.instalments.reduce((sum, line) => sum + line.paidCentavos, 0)).toBe(position.repaidCentavos);
      }),
      { numRuns: 150 },
    );
  });

  it('paying the whole schedule in any split and any order of value dates ends in the same final state, the loan completed', () => {
    // Days from the due date: up to 25 early, or up to the 3 grace days late (never charged). The last
    // instalment is paid on or after its due date: earlier, its interest is not yet owed, and the
    // payoff amount (its principal) would close the loan before the whole schedule is paid.
    const parts = fc.array(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.array(fc.integer({ min: -25, max: 3 }), { minLength: 3, maxLength: 3 })), { minLength: 12, maxLength: 12 });
    fc.assert(
      // One sort key per part (at most 12 × 3): the order the payments are recorded in.
      fc.property(parts, fc.array(fc.nat(), { minLength: 36, maxLength: 36 }), (splits, shuffle) => {
        const loan = new ServicedLoan();
        const dueDates = loan.dueDates;
        // Instalment k in 1–3 parts (never valued before disbursement), recorded in a random order after the last due date.
        const payments = splits.flatMap(([count, early], index) => {
          const sizes = Array.from({ length: count }, (_, part) => (part < count - 1 ? Math.floor(INSTALMENT_CENTAVOS / count) : INSTALMENT_CENTAVOS - Math.floor(INSTALMENT_CENTAVOS / count) * (count - 1)));
          const offset = (part: number) => (index === dueDates.length - 1 ? Math.abs(early[part]) % 4 : early[part]);
          return sizes.map((amount, part) => ({ amount, valueDate: [addDays(dueDates[index], offset(part)), OPENED_ON].sort().at(-1)! }));
        });
        const order = payments.map((payment, index) => ({ payment, key: shuffle[index] })).sort((a, b) => a.key - b.key);
        const today = addDays(dueDates.at(-1)!, 3);
        for (const { payment } of order) expect(loan.pay(payment.amount, payment.valueDate, today)).not.toBeTypeOf('string');
        const position = loanPosition(loan.loan.account!, today);
        expect(loan.loan.status).toBe('completed');
        expect(position.outstanding.totalCentavos).toBe(0);
        expect(position.instalments.map((line) => [line.status, line.paidCentavos, line.penaltyCentavos])).toEqual(dueDates.map(() => ['paid', INSTALMENT_CENTAVOS, 0]));
      }),
      { numRuns: 60 },
    );
  });

  it('a back-dated payment gives the state an on-time payment would have', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), fc.integer({ min: 1, max: 60 }), fc.double({ min: 0.01, max: 1, noNaN: true }), (steps, delay, share) => {
        const { loan: onTime, today } = live(steps);
        if (onTime.loan.status === 'completed') return;
        const amount = Math.max(1, Math.round(loanPosition(onTime.loan.account!, today).payoff.totalCentavos * share));
        const late = onTime.copy();
        // On time: paid today, then the days close. Late: the days close, then it is recorded with today's value date.
        const paid = onTime.pay(amount, today, today, 'aaaaaaaa-0000-4000-8000-000000000001');
        if (typeof paid === 'string') return;
        onTime.closeThrough(addDays(today, delay));
        late.closeThrough(addDays(today, delay));
        expect(late.pay(amount, today, addDays(today, delay), 'aaaaaaaa-0000-4000-8000-000000000001')).not.toBeTypeOf('string');
        const asOf = addDays(today, delay);
        expect(owed(loanPosition(late.loan.account!, asOf))).toEqual(owed(loanPosition(onTime.loan.account!, asOf)));
        expect(late.loan.status).toBe(onTime.loan.status);
      }),
      { numRuns: 120 },
    );
  });

  it('reversing a payment gives the state without it', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), fc.double({ min: 0.01, max: 0.99, noNaN: true }), fc.array(step, { maxLength: 8 }), fc.integer({ min: 0, max: 90 }), (before, share, after, laterDays) => {
        const { loan: withIt, today } = live(before);
        if (withIt.loan.status === 'completed') return;
        const without = withIt.copy();
        const amount = Math.max(1, Math.round(loanPosition(withIt.loan.account!, today).payoff.totalCentavos * share));
        if (typeof withIt.pay(amount, today, today, 'bbbbbbbb-0000-4000-8000-000000000001') === 'string') return;
        // Day closes follow in both worlds; then the payment is reversed in one of them.
        const reversalDate = addDays(today, laterDays);
        withIt.closeThrough(reversalDate);
        without.closeThrough(reversalDate);
        expect(withIt.reverse('bbbbbbbb-0000-4000-8000-000000000001', reversalDate)).not.toBeTypeOf('string');
        expect(owed(loanPosition(withIt.loan.account!, reversalDate))).toEqual(owed(loanPosition(without.loan.account!, reversalDate)));
        // And it stays so as the days go on.
        for (const s of after) {
          if (s.kind !== 'close') continue;
          const later = addDays(reversalDate, s.days);
          withIt.closeThrough(later);
          without.closeThrough(later);
          expect(owed(loanPosition(withIt.loan.account!, later))).toEqual(owed(loanPosition(without.loan.account!, later)));
        }
      }),
      { numRuns: 120 },
    );
  });

  it('the day close run twice for one date changes nothing', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 15 }), fc.integer({ min: 0, max: 200 }), (steps, days) => {
        const { loan, today } = live(steps);
        const date = addDays(today, days);
        loan.closeThrough(date);
        const state = loan.state;
        expect(loan.closeThrough(date)).toEqual([]);
        expect(loan.state).toBe(state);
      }),
      { numRuns: 100 },
    );
  }, 120_000);
});

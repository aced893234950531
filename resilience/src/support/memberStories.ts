import { randomUUID } from 'node:crypto';
import { parseDomainEvent, streams, type DomainEvent } from '@honeylend/contracts';
import type { EventStore } from '@honeylend/eventstore';

/** The argon2id hash (m=19456, t=2, p=1) of a throwaway password: these members never sign in. */
const PASSWORD_HASH = '$argon2id$v=19$m=19456,t=2,p=1$zED2D/G6NxJGqVVdfDCDbA$wyL1656FB0q5hih5R2tTNhmnA/dwvRhI5nx6gCxhBa8';

/** Events in one member's story; a run of N events is N / EVENTS_PER_STORY stories. */
export const EVENTS_PER_STORY = 11;

interface StoryStep {
  stream: string;
  event: DomainEvent;
}

/**
 * One borrower's life as the API would write it, one append per step, touching every busy read
 * model (member, search, counters, loans, withdrawals, notifications): phone reservation,
 * registration, a profile, a loan applied and approved, its disbursement, a withdrawal requested
 * and completed, a notification and an admin's balance adjustment.
 */
function storySteps(index: number, runId: number): StoryStep[] {
  const memberId = randomUUID();
  const loanId = randomUUID();
  const withdrawalId = randomUUID();
  const phone = `+639${String((runId * 100_000 + index) % 1_000_000_000).padStart(9, '0')}`;
  const at = () => new Date().toISOString();
  const member = streams.member(memberId);
  const loan = streams.loan(loanId);
  return [
    { stream: streams.phone(phone), event: { type: 'PhoneReserved', data: { phone, memberId, reservedAt: at() } } },
    {
      stream: member,
      event: {
        type: 'MemberRegistered',
        data: { memberId, phone, fullName: `Crash Borrower ${index}`, email: null, passwordHash: PASSWORD_HASH, registeredAt: at(), registeredBy: 'self' },
      },
    },
    { stream: member, event: { type: 'MemberProfileUpdated', data: { memberId, changes: { address: `${index} Mabini Street, Quezon City`, bankName: 'BPI' }, updatedAt: at() } } },
    { stream: member, event: { type: 'LoanApplicationOpened', data: { memberId, loanId, openedAt: at() } } },
    {
      stream: loan,
      event: {
        type: 'LoanApplied',
        data: {
          loanId,
          memberId,
          loanNumber: `LN-2026-${String(runId % 1000).padStart(3, '0')}${String(index).padStart(6, '0')}`,
          amountCentavos: 5_000_000,
          termMonths: 6,
          monthlyRateBps: 250,
          purpose: 'Tuition',
          appliedAt: at(),
        },
      },
    },
    { stream: loan, event: { type: 'LoanStatusChanged', data: { loanId, memberId, from: 'pending', to: 'approved', message: null, changedAt: at() } } },
    // RA 3765: the borrower accepts the Disclosure Statement before the money moves.
    { stream: loan, event: { type: 'LoanTermsAccepted', data: { loanId, memberId, statementHash: 'c'.repeat(64), acceptedAt: at(), ipAddress: '127.0.0.1' } } },
    { stream: member, event: { type: 'LoanDisbursed', data: { memberId, loanId, amountCentavos: 5_000_000, disbursedAt: at() } } },
    {
      stream: member,
      event: {
        type: 'WithdrawalRequested',
        data: { memberId, withdrawalId, withdrawalNumber: `WD-${runId}-${index}`, amountCentavos: 200_000, bankName: 'BPI', bankAccountNumber: '1234567890', challengeId: randomUUID(), requestedAt: at() },
      },
    },
    {
      stream: member,
      event: { type: 'MemberNotified', data: { memberId, notificationId: randomUUID(), title: 'Loan approved', message: 'Your loan was approved.', type: 'loan_update', notifiedAt: at() } },
    },
    { stream: member, event: { type: 'BalanceAdjusted', data: { memberId, adjustmentId: randomUUID(), amountCentavos: 12_345, reason: 'Goodwill credit', adjustedAt: at() } } },
  ];
}

/**
 * Appends `stories` member stories through the store port, `concurrency` stories at a time, one
 * event per append (so the projections follow the log live, event by event). `onAppended` is
 * told the running count after each append.
 */
export async function appendMemberStories(store: EventStore, options: { stories: number; concurrency: number; onAppended?: (count: number) => Promise<void> | void }): Promise<number> {
  const runId = Math.floor(Math.random() * 10_000);
  let next = 0;
  let appended = 0;
  const revisions = new Map<string, number>();
  const teller = async () => {
    while (next < options.stories) {
      const index = next++;
      for (const step of storySteps(index, runId)) {
        parseDomainEvent(step.event.type, step.event.data);
        const expected = revisions.get(step.stream) ?? 'no_stream';
        const result = await store.append(step.stream, [{ id: randomUUID(), type: step.event.type, data: step.event.data, metadata: { actorId: 'resilience', correlationId: randomUUID() } }], {
          expectedRevision: expected,
        });
        revisions.set(step.stream, result.nextRevision);
        appended += 1;
        await options.onAppended?.(appended);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, teller));
  return appended;
}

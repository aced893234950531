import type { Queue } from 'bullmq';
import { formatPesos, JOB_NAMES, notificationJobOptions, streams } from '@honeylend/contracts';
import type { EventMetadata, EventStore } from '@honeylend/eventstore';
import { handleCommand } from '../platform/commands/commandHandler.js';
import { derivedId } from '../platform/ids/derivedId.js';
import { memberDecider } from '../members/decide.js';

/** What the borrower is told when an approval lapses: the approval's own notice said "accept within 7 days", which is no longer true. */
export function lapseNotice(loan: { loanNumber: string; amountCentavos: number }): { title: string; message: string } {
  return {
    title: `Loan ${loan.loanNumber}: approval lapsed`,
    message: `The approval of your loan ${loan.loanNumber} for ${formatPesos(loan.amountCentavos)} lapsed: its Disclosure Statement was not accepted within 7 days, so no money was lent and nothing is owed. You may apply again.`,
  };
}

/**
 * After LoanApprovalLapsed: the borrower's application closes (they may apply again) and they are
 * told, in the app and by text. The notice's id is derived from the loan's, so the text goes once.
 */
export async function closeLapsedApproval(
  deps: { store: EventStore; notificationQueue: Queue },
  loan: { loanId: string; memberId: string; loanNumber: string; amountCentavos: number },
  now: string,
  metadata: EventMetadata,
): Promise<void> {
  const { loanId, memberId } = loan;
  await handleCommand(deps.store, streams.member(memberId), memberDecider, { type: 'CloseLoanApplication', memberId, loanId, closing: 'lapsed', now }, metadata);
  const notificationId = derivedId(`approval-lapsed:${loanId}`);
  const { title, message } = lapseNotice(loan);
  const notified = await handleCommand(deps.store, streams.member(memberId), memberDecider, { type: 'NotifyMember', memberId, notificationId, title, message, type_: 'loan_update', now }, metadata);
  if (notified.state.exists) {
    await deps.notificationQueue.add(JOB_NAMES.sendNotification, { notificationId, memberId, phone: notified.state.phone, title, message }, notificationJobOptions(notificationId));
  }
}

import { evolveLoanAccount, findRepayment, loanPosition, type LoanAccountEvent, type LoanDoc, type ReadModelKeys } from '@honeylend/contracts';
import type { ReadModelTransaction } from '../readModelTransaction.js';

/** What one active loan adds to the portfolio and the collections lists. */
interface BookEntry {
  bucket: string;
  principalCentavos: number;
  daysPastDue: number;
}

function bookEntry(doc: LoanDoc): BookEntry | null {
  if (doc.status !== 'active' || !doc.account) return null;
  const position = loanPosition(doc.account);
  return { bucket: position.bucket, principalCentavos: position.outstanding.principalCentavos, daysPastDue: position.daysPastDue };
}

const monthOf = (businessDate: string) => businessDate.slice(0, 7);

/**
 * Folds a servicing event into the loan's document (its account, and the status the money sets)
 * and keeps, in the same transaction, what the admins' portfolio and collections read: outstanding
 * principal and loan counts per delinquency bucket, money repaid per business month, and the overdue
 * loans scored by days past due. Each is moved by the difference between the loan's position
 * before and after the event, so nothing is ever recomputed by scanning.
 */
export function applyServicingEvent(tx: ReadModelTransaction, keys: ReadModelKeys, current: LoanDoc, event: LoanAccountEvent, at: string, version: number): LoanDoc {
  const account = evolveLoanAccount(current.account ?? null, event);
  const status = event.type === 'LoanAccountOpened' ? 'active' : event.type === 'LoanPaidOff' ? 'completed' : current.status;
  const doc: LoanDoc = {
    ...current,
    account,
    status,
    updatedAt: at,
    version,
    lastReminderAt: event.type === 'RepaymentReminderSent' ? event.data.sentAt : (current.lastReminderAt ?? null),
  };
  // What the loan added before is what its document says it added: one fold per event, not two.
  const before = current.book === undefined ? bookEntry(current) : current.book;
  const after = bookEntry(doc);
  doc.book = after;
  if (before) {
    tx.hincrby(keys.portfolio, `principal:${before.bucket}`, -before.principalCentavos);
    tx.hincrby(keys.portfolio, `count:${before.bucket}`, -1);
    if (!after || after.bucket !== before.bucket || after.daysPastDue === 0) tx.zrem(keys.loansOverdueByBucket(before.bucket), doc.id);
  }
  if (after) {
    tx.hincrby(keys.portfolio, `principal:${after.bucket}`, after.principalCentavos);
    tx.hincrby(keys.portfolio, `count:${after.bucket}`, 1);
  }
  if (after && after.daysPastDue > 0) {
    tx.zadd(keys.loansOverdue, after.daysPastDue, doc.id);
    tx.zadd(keys.loansOverdueByBucket(after.bucket), after.daysPastDue, doc.id);
  } else if (before && before.daysPastDue > 0) {
    tx.zrem(keys.loansOverdue, doc.id);
  }
  if (event.type === 'RepaymentReceived') tx.hincrby(keys.portfolio, `repaid:${monthOf(event.data.businessDate)}`, event.data.amountCentavos);
  if (event.type === 'RepaymentReversed' && current.account) {
    const reversed = findRepayment(current.account, event.data.repaymentId);
    if (reversed && !reversed.reversal) tx.hincrby(keys.portfolio, `repaid:${monthOf(reversed.businessDate)}`, -reversed.amountCentavos);
  }
  return doc;
}

import type { EventData } from '../../events.js';
import { addDays, type BusinessDate } from './businessDate.js';
import { evolveLoanAccount, type LoanAccount, type LoanAccountEvent } from './loanAccount.js';
import { loanPosition, type LoanPosition } from './position.js';

type DayCloseEvent = Extract<LoanAccountEvent, { type: 'InstalmentFellDue' | 'LateChargeApplied' | 'DelinquencyBucketChanged' | 'LoanDayClosed' }>;

/**
 * The first business date after `day` on which a day close could record anything for a loan that
 * is not past due: an unpaid instalment's due date (or the day after one that is due today).
 * Null when nothing is left to fall due.
 */
function nextEventfulDay(position: LoanPosition, day: BusinessDate): BusinessDate | null {
  if (position.closed) return null;
  if (position.daysPastDue > 0) return addDays(day, 1);
  const dates = position.instalments.filter((line) => line.status !== 'paid').map((line) => (line.dueDate > day ? line.dueDate : addDays(day, 1)));
  return dates.length === 0 ? null : dates.reduce((a, b) => (a < b ? a : b));
}

/**
 * What opening each business date up to `through` made true for this loan, day by day from the
 * last one its day close opened: instalments fell due, late charges of the day just closed, a new
 * delinquency bucket; an overdue loan with none of these still records the day (its days past due
 * grew). Opening a date already opened records nothing, so running a close twice, or two workers
 * at once, changes nothing; a close after an outage catches up every missed day in order.
 * Days on which nothing can happen (a loan in good standing between due dates) are skipped
 * without computing them.
 */
export function dayCloseEvents(account: LoanAccount, through: BusinessDate): DayCloseEvent[] {
  const events: DayCloseEvent[] = [];
  let current = account;
  let day = current.today;
  while (day < through && !current.paidOff) {
    const before = loanPosition(current, day);
    const next = nextEventfulDay(before, day);
    if (next === null || next > through) break;
    // Skipped days changed nothing, so the position the day before `next` is `before` as of then.
    const opening = next === addDays(day, 1) ? before : loanPosition(current, addDays(next, -1));
    const after = loanPosition(current, next);
    const { loanId, memberId } = current;
    const dayEvents: DayCloseEvent[] = [];
    for (const line of after.instalments) {
      const owed = line.unpaidPrincipalCentavos + line.unpaidInterestCentavos + line.unpaidPenaltyCentavos;
      if (line.dueDate === next && owed > 0) {
        dayEvents.push({ type: 'InstalmentFellDue', data: { loanId, memberId, instalment: line.number, dueDate: line.dueDate, amountDueCentavos: owed, businessDate: next } });
      }
    }
    after.instalments.forEach((line, index) => {
      const charged = line.penaltyChargedCentavos - opening.instalments[index].penaltyChargedCentavos;
      if (charged <= 0) return;
      const data: EventData<'LateChargeApplied'> = {
        loanId,
        memberId,
        instalment: line.number,
        chargedFor: addDays(next, -1),
        amountCentavos: charged,
        overdueCentavos: line.unpaidPrincipalCentavos + line.unpaidInterestCentavos,
        businessDate: next,
      };
      dayEvents.push({ type: 'LateChargeApplied', data });
    });
    if (after.bucket !== current.bucket) {
      dayEvents.push({ type: 'DelinquencyBucketChanged', data: { loanId, memberId, from: current.bucket, to: after.bucket, daysPastDue: after.daysPastDue, businessDate: next } });
    }
    if (dayEvents.length === 0 && after.daysPastDue > 0) {
      dayEvents.push({ type: 'LoanDayClosed', data: { loanId, memberId, daysPastDue: after.daysPastDue, businessDate: next } });
    }
    for (const event of dayEvents) current = evolveLoanAccount(current, event)!;
    events.push(...dayEvents);
    day = next;
  }
  return events;
}

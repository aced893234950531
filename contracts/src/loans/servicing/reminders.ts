import type { ReminderReason } from '../../events.js';
import { addDays, type BusinessDate } from './businessDate.js';
import { reminderKey, type LoanAccount } from './loanAccount.js';
import { loanPosition } from './position.js';

export interface DueReminder {
  instalment: number;
  reason: ReminderReason;
  dueDate: BusinessDate;
  amountCentavos: number;
}

/**
 * Reminders owed on `today`: 3 days before an unpaid instalment's due date, on it, and 1 day after
 * — each once per instalment and reason. A reminder missed (the workers were down, or it was night
 * in Manila) still goes out while its window lasts: before the due date, on it, or within the
 * grace days after it, and never once the next reason's window has begun.
 */
export function remindersDue(account: LoanAccount, today: BusinessDate): DueReminder[] {
  if (account.paidOff) return [];
  const position = loanPosition(account, today);
  const due: DueReminder[] = [];
  for (const line of position.instalments) {
    if (line.status === 'paid') continue;
    const amountCentavos = line.unpaidPrincipalCentavos + line.unpaidInterestCentavos + line.unpaidPenaltyCentavos;
    const reason: ReminderReason | null =
      today >= addDays(line.dueDate, -3) && today < line.dueDate
        ? 'before_due'
        : today === line.dueDate
          ? 'due_today'
          : today > line.dueDate && today <= addDays(line.dueDate, 1 + account.lateChargeGraceDays)
            ? 'overdue'
            : null;
    if (reason && !account.remindersSent.includes(reminderKey(line.number, reason))) {
      due.push({ instalment: line.number, reason, dueDate: line.dueDate, amountCentavos });
    }
  }
  return due;
}

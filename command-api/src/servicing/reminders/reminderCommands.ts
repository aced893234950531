import { addDays, remindersDue, startOfBusinessDate, type BusinessDate, type LoanAccount } from '@honeylend/contracts';
import type { LoanCommand } from '../../lending/decide.js';
import { derivedId } from '../../platform/ids/derivedId.js';
import { reminderText } from './reminderText.js';

/** Reminders go out between 08:00 and 20:00 Manila time; one due at night waits for the morning run. */
export const REMINDER_HOURS = { from: 8, until: 20 } as const;

/** One id per loan, instalment and reason: the notification, its SMS job and its delivery record all dedupe on it. */
export const reminderNotificationId = (loanId: string, instalment: number, reason: string) => derivedId(`reminder:${loanId}:${instalment}:${reason}`);

/** 08:05 Manila on `day`: the first hourly run (at :05) within the reminder hours. */
export function firstReminderRunOf(day: BusinessDate): string {
  return new Date(Date.parse(startOfBusinessDate(day)) + (REMINDER_HOURS.from * 60 + 5) * 60_000).toISOString();
}

/** The days a reminder's window opens for this account (3 days before each due date, on it, the day after), in order. */
export function reminderOpeningDays(account: LoanAccount): BusinessDate[] {
  return [...new Set(account.schedule.flatMap((line) => [addDays(line.dueDate, -3), line.dueDate, addDays(line.dueDate, 1)]))].sort();
}

/** The RecordReminder commands a loan owes on `day`, dated `sentAt` (the loan's stream refuses any already recorded). */
export function reminderCommands(loan: { loanId: string; loanNumber: string }, account: LoanAccount, day: BusinessDate, sentAt: string): Extract<LoanCommand, { type: 'RecordReminder' }>[] {
  return remindersDue(account, day).map((reminder) => {
    const notificationId = reminderNotificationId(loan.loanId, reminder.instalment, reminder.reason);
    const { title, message } = reminderText(reminder.reason, loan.loanNumber, reminder.instalment, reminder.amountCentavos, reminder.dueDate);
    return { type: 'RecordReminder', loanId: loan.loanId, ...reminder, notificationId, title, message, now: sentAt };
  });
}

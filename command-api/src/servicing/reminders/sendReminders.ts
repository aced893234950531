import type { Queue } from 'bullmq';
import { JOB_NAMES, addDays, notificationJobOptions, remindersDue, startOfBusinessDate, streams, type BusinessDate, type LoanDoc, type MemberDoc } from '@honeylend/contracts';
import type { EventMetadata } from '@honeylend/eventstore';
import { handleCommand } from '../../platform/commands/commandHandler.js';
import { loanDecider } from '../../lending/decide.js';
import { reminderText } from './reminderText.js';
import { derivedId } from '../derivedId.js';
import type { LoanBookDeps } from '../loanBookDeps.js';

/** Reminders go out between 08:00 and 20:00 Manila time; one due at night waits for the morning run. */
export const REMINDER_HOURS = { from: 8, until: 20 } as const;

export function isReminderHour(now: Date): boolean {
  const manilaHour = (now.getUTCHours() + 8) % 24;
  return manilaHour >= REMINDER_HOURS.from && manilaHour < REMINDER_HOURS.until;
}

/** One id per loan, instalment and reason: the notification, its SMS job and its delivery record all dedupe on it. */
export const reminderNotificationId = (loanId: string, instalment: number, reason: string) => derivedId(`reminder:${loanId}:${instalment}:${reason}`);

export interface ReminderDeps extends LoanBookDeps {
  notificationQueue: Queue;
}

const DOCS_PER_READ = 500;

/**
 * Sends the reminders due on `today` (3 days before a due date, on it, 1 day after) to each
 * active loan's borrower, and only to them: the notification (RepaymentReminderSent on the loan's
 * stream, which the loan refuses to record twice for one instalment and reason) and its SMS through
 * the notification queue and its delivery record. `now` is the business clock's instant (today's
 * date, the time of day of the wall clock): the reminder is dated by it, and outside 08:00–20:00
 * Manila nothing is sent.
 */
export async function sendReminders(deps: ReminderDeps, today: BusinessDate, now: Date, metadata: EventMetadata): Promise<{ sent: number; waitingForMorning: boolean }> {
  if (!isReminderHour(now)) return { sent: 0, waitingForMorning: true };
  const sentAt = now.toISOString();
  let sent = 0;
  await forEachActiveLoan(deps, async (loan, member) => {
    sent += await remind(deps, loan, member, today, sentAt, metadata);
  });
  return { sent, waitingForMorning: false };
}

/**
 * The reminders of the whole business days a move of the business date crossed (after `after`,
 * before `before`), as the hourly job would have sent them had it lived through those days: each
 * on its own day, dated at that day's first run within the reminder hours (08:05 Manila). Only the
 * days on which a reminder's window opens, and the first crossed day, are looked at, so a long move
 * costs a few looks per instalment, not one per day.
 */
export async function sendCrossedDaysReminders(deps: ReminderDeps, after: BusinessDate, before: BusinessDate, metadata: EventMetadata): Promise<{ sent: number }> {
  const first = addDays(after, 1);
  if (first >= before) return { sent: 0 };
  let sent = 0;
  await forEachActiveLoan(deps, async (loan, member) => {
    const opening = loan.account!.schedule.flatMap((line) => [addDays(line.dueDate, -3), line.dueDate, addDays(line.dueDate, 1)]);
    const days = [...new Set([first, ...opening])].filter((day) => day >= first && day < before).sort();
    for (const day of days) sent += await remind(deps, loan, member, day, firstReminderRunOf(day), metadata);
  });
  return { sent };
}

/** 08:05 Manila on `day`: the first hourly run (at :05) within the reminder hours. */
function firstReminderRunOf(day: BusinessDate): string {
  return new Date(Date.parse(startOfBusinessDate(day)) + (REMINDER_HOURS.from * 60 + 5) * 60_000).toISOString();
}

async function forEachActiveLoan(deps: ReminderDeps, visit: (loan: LoanDoc, member: MemberDoc) => Promise<void>): Promise<void> {
  const ids = await deps.redis.zrange(deps.keys.loansByStatus('active'), 0, -1);
  for (let start = 0; start < ids.length; start += DOCS_PER_READ) {
    const raws = await deps.redis.mget(...ids.slice(start, start + DOCS_PER_READ).map(deps.keys.loan));
    for (const raw of raws) {
      if (!raw) continue;
      const loan = JSON.parse(raw) as LoanDoc;
      if (!loan.account) continue;
      const member = JSON.parse((await deps.redis.get(deps.keys.member(loan.memberId))) ?? 'null') as MemberDoc | null;
      if (!member) continue;
      await visit(loan, member);
    }
  }
}

async function remind(deps: ReminderDeps, loan: LoanDoc, member: MemberDoc, day: BusinessDate, sentAt: string, metadata: EventMetadata): Promise<number> {
  let sent = 0;
  for (const reminder of remindersDue(loan.account!, day)) {
    const notificationId = reminderNotificationId(loan.id, reminder.instalment, reminder.reason);
    const { title, message } = reminderText(reminder.reason, loan.loanNumber, reminder.instalment, reminder.amountCentavos, reminder.dueDate);
    const result = await handleCommand(deps.store, streams.loan(loan.id), loanDecider, { type: 'RecordReminder', loanId: loan.id, ...reminder, notificationId, title, message, now: sentAt }, metadata);
    if (result.events.length === 0) continue;
    await deps.notificationQueue.add(JOB_NAMES.sendNotification, { notificationId, memberId: member.id, phone: member.phone, title, message }, notificationJobOptions(notificationId));
    sent += 1;
  }
  return sent;
}

import type { Queue } from 'bullmq';
import { JOB_NAMES, addDays, notificationJobOptions, streams, type BusinessDate, type LoanDoc, type MemberDoc } from '@honeylend/contracts';
import type { EventMetadata } from '@honeylend/eventstore';
import { handleCommand } from '../../platform/commands/commandHandler.js';
import { loanDecider } from '../../lending/decide.js';
import type { LoanBookDeps } from '../loanBookDeps.js';
import { REMINDER_HOURS, firstReminderRunOf, reminderCommands, reminderOpeningDays } from './reminderCommands.js';

export { REMINDER_HOURS, reminderNotificationId } from './reminderCommands.js';

export function isReminderHour(now: Date): boolean {
  const manilaHour = (now.getUTCHours() + 8) % 24;
  return manilaHour >= REMINDER_HOURS.from && manilaHour < REMINDER_HOURS.until;
}

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
    const days = [...new Set([first, ...reminderOpeningDays(loan.account!)])].filter((day) => day >= first && day < before).sort();
    for (const day of days) sent += await remind(deps, loan, member, day, firstReminderRunOf(day), metadata);
  });
  return { sent };
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
  for (const command of reminderCommands({ loanId: loan.id, loanNumber: loan.loanNumber }, loan.account!, day, sentAt)) {
    const result = await handleCommand(deps.store, streams.loan(loan.id), loanDecider, command, metadata);
    if (result.events.length === 0) continue;
    const { notificationId, title, message } = command;
    await deps.notificationQueue.add(JOB_NAMES.sendNotification, { notificationId, memberId: member.id, phone: member.phone, title, message }, notificationJobOptions(notificationId));
    sent += 1;
  }
  return sent;
}

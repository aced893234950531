import type { BusinessDate } from '@honeylend/contracts';
import type { EventMetadata } from '@honeylend/eventstore';
import type { BusinessClock } from '../../platform/time/businessClock.js';
import { expireApprovals } from '../../approvals/expireApprovals.js';
import { sendCrossedDaysReminders, sendReminders, type ReminderDeps } from '../reminders/sendReminders.js';
import { lapseUnacceptedApprovals } from './lapseApprovals.js';

export interface DueWorkResult {
  reminders: number;
  lapsedApprovals: number;
  expiredRequests: number;
}

/**
 * What falls due with the business date once the day close ran through `today`: the reminders,
 * approvals the borrower did not accept in time, and four-eyes requests no second admin took up.
 * Every deadline is judged on the business clock, the one the day close and the routes read, so a
 * moved date carries them all across together. `crossedFrom`: the business date before a move;
 * the reminders of the whole days in between go out dated on their own days.
 */
export async function runDueWork(deps: ReminderDeps, clock: BusinessClock, today: BusinessDate, metadata: EventMetadata, crossedFrom?: BusinessDate): Promise<DueWorkResult> {
  const crossed = crossedFrom ? await sendCrossedDaysReminders(deps, crossedFrom, today, metadata) : { sent: 0 };
  const now = await clock.businessNow();
  const reminders = await sendReminders(deps, today, now, metadata);
  const lapsedApprovals = await lapseUnacceptedApprovals(deps, now);
  const expiredRequests = await expireApprovals(deps, now);
  return { reminders: crossed.sent + reminders.sent, lapsedApprovals, expiredRequests };
}

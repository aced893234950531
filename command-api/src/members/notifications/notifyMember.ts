import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import { JOB_NAMES, notificationJobOptions, streams, type NotificationType } from '@honeylend/contracts';
import { handleCommand } from '../../platform/commands/commandHandler.js';
import { jobTraceOf, metadataOf, type ApiDeps } from '../../platform/context/context.js';
import { memberDecider } from '../decide.js';

export interface MemberNotice {
  memberId: string;
  title: string;
  message: string;
  type: NotificationType;
}

/**
 * Tells the member something: a MemberNotified on their stream (their in-app list) and an SMS
 * job for the workers. The job id is the notification id, so a retried enqueue texts once.
 * Returns the notification id and the position to wait for.
 */
export async function notifyMember(deps: ApiDeps, ctx: Context, adminId: string, notice: MemberNotice): Promise<{ notificationId: string; position: number | null }> {
  const notificationId = randomUUID();
  const { memberId, title, message, type } = notice;
  const result = await handleCommand(
    deps.store,
    streams.member(memberId),
    memberDecider,
    // Dated by the business clock, as the reminders beside them in the inbox are.
    { type: 'NotifyMember', memberId, notificationId, title, message, type_: type, now: (await deps.businessClock.businessNow()).toISOString() },
    metadataOf(ctx, adminId),
  );
  if (result.state.exists) {
    await deps.jobs.notificationQueue.add(JOB_NAMES.sendNotification, { notificationId, memberId, phone: result.state.phone, title, message, ...jobTraceOf(ctx) }, notificationJobOptions(notificationId));
  }
  return { notificationId, position: result.position };
}

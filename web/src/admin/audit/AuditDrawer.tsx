import type { AdminAccountEntry, AuditEventAnswer, AuditStreamAnswer } from '@honeylend/contracts';
import { Drawer, Empty, Spin, Timeline, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { ApiError, apiRequest } from '../../shared/api';
import { formatDateTime } from '../../shared/money';
import { failureToast } from '../../console/adminApi';
import { actorLabel, changedFieldLines, eventTypeLabel, newestFirst } from '../../console/history/auditEntries';

export interface AuditSubject {
  /** The event stream, e.g. member-<id> or loan-<id>. */
  stream: string;
  title: string;
  /** The member the stream is about, so their own actions read "The member". */
  memberId: string | null;
}

/**
 * Issue 7 item 7: a stream's events in order with type, time, actor, IP and the changed fields,
 * read from the auditor's own endpoint (issue 16 item 6), so admins and auditors see one history.
 */
export function AuditDrawer({ subject, onClose }: { subject: AuditSubject | null; onClose: () => void }) {
  const [events, setEvents] = useState<AuditEventAnswer[] | null>(null);
  const [adminNames, setAdminNames] = useState<Map<string, string>>(new Map());

  useEffect(() => {
    if (!subject) return;
    const controller = new AbortController();
    setEvents(null);
    apiRequest<AuditStreamAnswer>(`/api/audit/streams/${encodeURIComponent(subject.stream)}`, { signal: controller.signal, cache: 'no-store' })
      .then((answer) => setEvents(newestFirst(answer.events)))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setEvents([]);
        // A stream without events is simply an empty history.
        if (!(error instanceof ApiError && error.status === 404)) failureToast('Failed to fetch the audit trail', error);
      });
    // Names for the admins who acted; without them the timeline shows their ids.
    apiRequest<AdminAccountEntry[]>('/api/admin/all-users', { signal: controller.signal })
      .then((admins) => setAdminNames(new Map(admins.map((admin) => [admin.id, `${admin.fullName} (${admin.username})`]))))
      .catch(() => undefined);
    return () => controller.abort();
  }, [subject]);

  return (
    // The events scroll in a region of their own that takes keyboard focus (the drawer's body would
    // scroll with no way to reach it from the keyboard: axe-core's scrollable-region-focusable).
    <Drawer
      open={subject !== null}
      onClose={onClose}
      title={subject ? `Audit trail: ${subject.title}` : ''}
      size="large"
      destroyOnHidden
      styles={{ body: { overflow: 'hidden', display: 'flex', flexDirection: 'column' } }}
    >
      <div className="admin-audit-events" tabIndex={0} role="region" aria-label="Recorded events">
        {events === null ? (
          <Spin />
        ) : events.length === 0 ? (
          <Empty description="No events recorded" />
        ) : (
          <Timeline
            items={events.map((event) => {
              const lines = changedFieldLines(event.data);
              return {
                key: `${event.stream}-${event.revision}`,
                content: (
                  <article className="admin-audit-event" aria-label={eventTypeLabel(event.type)}>
                    <Typography.Text strong>{eventTypeLabel(event.type)}</Typography.Text>
                    <div>
                      <Typography.Text type="secondary">
                        <time dateTime={event.createdAt}>{formatDateTime(event.createdAt)}</time> · by {actorLabel(event, subject?.memberId ?? null, adminNames)} · IP {event.metadata.ip ?? 'unknown'}
                      </Typography.Text>
                    </div>
                    {lines.length > 0 && <pre className="admin-audit-data">{lines.join('\n')}</pre>}
                  </article>
                ),
              };
            })}
          />
        )}
      </div>
    </Drawer>
  );
}

import type { AuditStreamAnswer } from '@honeylend/contracts';
import { Button, Card, DatePicker, Empty, Slider, Space, Spin, Table, Tag, Timeline, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { ApiError, apiRequest } from '../../shared/api';
import { formatDateTime } from '../../shared/money';
import { failureToast } from '../../console/adminApi';
import { storedStaffRole } from '../../console/access/adminSession';
import { actorLabel, changedFieldLines, eventTypeLabel } from '../../console/history/auditEntries';
import { PageHeader } from '../../console/layout/PageHeader';
import { shortHash } from '../auditApi';
import { stateFields, type StateField } from './stateDiff';
import { UnmaskDialog } from './UnmaskDialog';

const NO_NAMES: ReadonlyMap<string, string> = new Map();

/**
 * One stream as of any revision or time (issue 16 item 5): a slider over its revisions and a date
 * picker; the state the deciders' own evolve folds up to there, beside the event that made it,
 * with the fields that event changed highlighted.
 */
export function StreamPage() {
  const stream = decodeURIComponent(useParams().stream ?? '');
  const [params, setParams] = useSearchParams();
  const asOf = params.get('asOf');
  const [answer, setAnswer] = useState<AuditStreamAnswer | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  const [unmasking, setUnmasking] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    apiRequest<AuditStreamAnswer>(`/api/audit/streams/${encodeURIComponent(stream)}${asOf ? `?asOf=${encodeURIComponent(asOf)}` : ''}`, { signal: controller.signal, cache: 'no-store' })
      .then((result) => {
        setAnswer(result);
        setMissing(null);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.status === 404) setMissing(error.message);
        else failureToast('Failed to fetch the stream', error);
      });
    return () => controller.abort();
  }, [stream, asOf, reload]);

  // The slider follows the revision asked for, not the answer still on its way, and at once (the
  // address updates a little later): keys pressed in a row each move it one on.
  const [sliding, setSliding] = useState<number | null>(null);
  useEffect(() => setSliding((current) => (current !== null && asOf !== null && /^\d+$/.test(asOf) && asOf !== String(current) ? current : null)), [asOf]);
  const goTo = useCallback(
    (revision: number) => {
      setSliding(revision);
      setParams({ asOf: String(revision) });
    },
    [setParams],
  );

  const memberId = stream.startsWith('member-') ? stream.slice('member-'.length) : null;
  const revision = answer?.asOf.revision ?? -1;
  const requested = sliding ?? (asOf !== null && /^\d+$/.test(asOf) ? Number(asOf) : Math.max(0, revision));
  const current = answer && revision >= 0 ? answer.events[revision] : undefined;
  const fields = answer ? stateFields(answer.state, answer.previous) : [];

  return (
    <>
      <PageHeader title={`Stream ${stream}`}>{memberId && storedStaffRole() === 'auditor' && <Button onClick={() => setUnmasking(true)}>Unmask member</Button>}</PageHeader>
      {missing ? (
        <Empty description={missing} />
      ) : !answer ? (
        <Spin />
      ) : (
        <>
          <Card size="small" className="audit-stream__controls">
            <Space direction="vertical" style={{ width: '100%' }}>
              <Space wrap>
                <Typography.Text strong>
                  As of revision {revision} of {answer.revisions - 1}
                </Typography.Text>
                {answer.aggregate ? <Tag>folded by the {answer.aggregate} decider</Tag> : <Tag>no decider owns this stream</Tag>}
                <DatePicker showTime aria-label="As of a time" placeholder="As of a date and time" onChange={(value) => value && setParams({ asOf: value.toISOString() })} />
              </Space>
              <Slider
                ariaLabelForHandle="Revision"
                min={0}
                max={Math.max(0, answer.revisions - 1)}
                value={requested}
                onChange={(value) => goTo(value)}
                marks={{ 0: '0', [answer.revisions - 1]: String(answer.revisions - 1) }}
                tooltip={{ formatter: (value) => `revision ${value}` }}
              />
            </Space>
          </Card>
          <div className="audit-stream">
            <Card size="small" title={`Events up to revision ${revision}`}>
              {answer.events.length === 0 ? (
                <Empty description="No event of this stream had happened yet" />
              ) : (
                <Timeline
                  items={answer.events.map((event) => ({
                    key: event.revision,
                    color: event.revision === revision ? 'gold' : 'blue',
                    content: (
                      <article className={event.revision === revision ? 'audit-stream__event--current' : undefined} aria-label={`Revision ${event.revision}`}>
                        <Typography.Link onClick={() => goTo(event.revision)}>
                          #{event.revision} {eventTypeLabel(event.type)}
                        </Typography.Link>
                        <div>
                          <Typography.Text type="secondary">
                            {formatDateTime(event.createdAt)} · by {actorLabel(event, memberId, NO_NAMES)} · position {event.position} · <code>{shortHash(event.hash)}</code>
                          </Typography.Text>
                        </div>
                        {event.revision === revision && <pre className="admin-audit-data">{changedFieldLines(event.data).join('\n')}</pre>}
                      </article>
                    ),
                  }))}
                />
              )}
            </Card>
            <Card size="small" title={current ? `State after ${eventTypeLabel(current.type)} (${formatDateTime(current.createdAt)})` : 'State before the first event'} aria-label="State">
              <Table<StateField>
                rowKey="path"
                size="small"
                pagination={false}
                dataSource={fields}
                rowClassName={(field) => (field.changed && revision >= 0 ? 'audit-state__changed' : '')}
                columns={[
                  { title: 'Field', dataIndex: 'path', width: '45%' },
                  { title: 'Value', dataIndex: 'value', render: (value: string, field) => (field.changed && revision >= 0 ? <span aria-label={`changed: ${field.path}`}>{value}</span> : value) },
                ]}
              />
            </Card>
          </div>
        </>
      )}
      {memberId && <UnmaskDialog memberId={memberId} open={unmasking} onClose={() => setUnmasking(false)} onUnmasked={() => setReload((value) => value + 1)} />}
    </>
  );
}

import type { AuditEventsAnswer, AuditLogEvent } from '@honeylend/contracts';
import { Button, Card, DatePicker, Form, Input, Space, Switch, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { apiRequest } from '../../shared/api';
import { downloadFile } from '../../shared/downloadFile';
import { formatDateTime } from '../../shared/money';
import { failureToast, successToast } from '../../console/adminApi';
import { changedFieldLines, eventTypeLabel } from '../../console/history/auditEntries';
import { PageHeader } from '../../console/layout/PageHeader';
import { NO_FILTER, auditPath, shortHash, type LogFilter } from '../auditApi';

const PAGE_SIZE = 200;
const TAIL_EVERY_MS = 2_000;
/** The table keeps at most this many rows (it is virtualised, but memory is not free). */
const MAX_ROWS = 20_000;

/**
 * The global log (issue 16 item 5): every event in order, the filters combined (stream, type,
 * actor, time), in pages as the cursor goes on; a live tail that adds new events as they are
 * appended; exports of exactly what is filtered, with each event's hash.
 */
export function LogPage() {
  const [draft, setDraft] = useState<LogFilter>(NO_FILTER);
  const [filter, setFilter] = useState<LogFilter>(NO_FILTER);
  const [pickerKey, setPickerKey] = useState(0);
  const [events, setEvents] = useState<AuditLogEvent[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [loading, setLoading] = useState(false);
  const [tail, setTail] = useState(false);
  const [exporting, setExporting] = useState<string | null>(null);
  /** Where the log was read to: the tail asks for what came after. */
  const readTo = useRef(0);

  const read = useCallback(
    async (from: number | undefined, replace: boolean, signal?: AbortSignal) => {
      const answer = await apiRequest<AuditEventsAnswer>(auditPath('events', filter, { from, limit: PAGE_SIZE }), { signal, cache: 'no-store' });
      readTo.current = Math.max(answer.next ?? answer.scannedTo, answer.events.at(-1)?.position ?? 0);
      setEvents((shown) => (replace ? answer.events : [...shown, ...answer.events]).slice(-MAX_ROWS));
      setNext(answer.next);
    },
    [filter],
  );

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    readTo.current = 0;
    read(undefined, true, controller.signal)
      .catch((error: unknown) => {
        if (!controller.signal.aborted) failureToast('Failed to fetch the log', error);
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [read]);

  useEffect(() => {
    if (!tail) return;
    let stopped = false;
    const timer = setInterval(() => {
      if (stopped) return;
      read(readTo.current, false).catch(() => undefined);
    }, TAIL_EVERY_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [tail, read]);

  async function exportAs(format: 'ndjson' | 'csv') {
    setExporting(format);
    try {
      const fileName = await downloadFile(auditPath('export', filter, { format }), format === 'csv' ? 'text/csv' : 'application/x-ndjson', `honeylend-log.${format}`);
      successToast('Export ready', `${fileName}: the export is recorded on the log.`);
    } catch (error) {
      failureToast('Export failed', error);
    } finally {
      setExporting(null);
    }
  }

  const columns: TableColumnsType<AuditLogEvent> = [
    { title: 'Position', dataIndex: 'position', width: 90 },
    { title: 'Time (Manila)', key: 'time', width: 180, render: (_, event) => <time dateTime={event.createdAt}>{formatDateTime(event.createdAt)}</time> },
    {
      title: 'Stream',
      key: 'stream',
      width: 300,
      ellipsis: true,
      render: (_, event) => (
        <Link to={`/audit/streams/${encodeURIComponent(event.stream)}?asOf=${event.revision}`} title={event.stream}>
          {event.stream} <Typography.Text type="secondary">#{event.revision}</Typography.Text>
        </Link>
      ),
    },
    { title: 'Event', key: 'type', width: 200, ellipsis: true, render: (_, event) => eventTypeLabel(event.type) },
    { title: 'Actor', key: 'actor', width: 140, ellipsis: true, render: (_, event) => event.metadata.actorId ?? 'system' },
    { title: 'IP', key: 'ip', width: 120, render: (_, event) => event.metadata.ip ?? '—' },
    { title: 'Changes', key: 'changes', width: 320, ellipsis: true, render: (_, event) => changedFieldLines(event.data).join(' · ') },
    {
      title: 'Hash',
      key: 'hash',
      width: 130,
      render: (_, event) => (
        <Tooltip title={event.hash ?? 'This store keeps no hash per event'}>
          <code>{shortHash(event.hash)}</code>
        </Tooltip>
      ),
    },
  ];

  const apply = () => setFilter({ ...draft });
  const clear = () => {
    setDraft(NO_FILTER);
    setFilter(NO_FILTER);
    setPickerKey((key) => key + 1);
  };

  return (
    <>
      <PageHeader title="Event log">
        <Space>
          <Switch checked={tail} onChange={setTail} aria-label="Live tail" /> <span>Live tail</span>
          <Button onClick={() => void exportAs('ndjson')} loading={exporting === 'ndjson'}>
            Export NDJSON
          </Button>
          <Button onClick={() => void exportAs('csv')} loading={exporting === 'csv'}>
            Export CSV
          </Button>
        </Space>
      </PageHeader>
      <Card size="small" className="audit-log__filters">
        <Form layout="inline" aria-label="Filter the log" onFinish={apply} onReset={clear}>
          <Form.Item label="Stream">
            <Input aria-label="Stream" placeholder="member-…, loan-…" value={draft.stream} onChange={(event) => setDraft({ ...draft, stream: event.target.value })} style={{ width: 320 }} allowClear />
          </Form.Item>
          <Form.Item label="Event type">
            <Input aria-label="Event type" placeholder="LoanApplied" value={draft.type} onChange={(event) => setDraft({ ...draft, type: event.target.value })} style={{ width: 180 }} allowClear />
          </Form.Item>
          <Form.Item label="Actor">
            <Input aria-label="Actor" placeholder="an account id" value={draft.actor} onChange={(event) => setDraft({ ...draft, actor: event.target.value })} style={{ width: 200 }} allowClear />
          </Form.Item>
          <Form.Item label="Between">
            <DatePicker.RangePicker
              key={pickerKey}
              showTime
              allowEmpty={[true, true]}
              aria-label="Between"
              onChange={(values) => setDraft({ ...draft, since: values?.[0]?.toISOString() ?? '', until: values?.[1]?.toISOString() ?? '' })}
            />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit">
              Apply filters
            </Button>
            <Button htmlType="reset">Clear</Button>
          </Space>
        </Form>
      </Card>
      <Table<AuditLogEvent>
        className="audit-log__table"
        rowKey="position"
        columns={columns}
        dataSource={events}
        loading={loading}
        virtual
        scroll={{ x: 1480, y: 560 }}
        pagination={false}
        size="small"
        locale={{ emptyText: 'No events match these filters' }}
        aria-label="Events"
      />
      <div className="audit-log__footer">
        <Typography.Text type="secondary">
          {events.length.toLocaleString('en-PH')} events shown{next !== null ? ', more after these' : ''}
        </Typography.Text>
        {next !== null && !tail && <Button onClick={() => void read(next, false).catch((error: unknown) => failureToast('Failed to fetch the log', error))}>Load more</Button>}
      </div>
    </>
  );
}

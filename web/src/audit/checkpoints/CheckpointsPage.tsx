import type { AuditCheckpointEntry, AuditCheckpointsAnswer } from '@honeylend/contracts';
import { Button, Card, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { apiRequest } from '../../shared/api';
import { saveBlob } from '../../shared/downloadFile';
import { formatDateTime } from '../../shared/money';
import { failureToast, successToast } from '../../console/adminApi';
import { PageHeader } from '../../console/layout/PageHeader';
import { shortHash } from '../auditApi';

/**
 * The signed checkpoints (design §10): each says the chain passed through a hash at a position,
 * signed with Ed25519. Kept off the server (downloaded here), they catch even someone who
 * rewrites the table and recomputes the chain: `lending audit verify --checkpoints FILE`.
 */
export function CheckpointsPage() {
  const [answer, setAnswer] = useState<AuditCheckpointsAnswer | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    apiRequest<AuditCheckpointsAnswer>('/api/audit/checkpoints', { signal: controller.signal, cache: 'no-store' })
      .then(setAnswer)
      .catch((error: unknown) => {
        if (!controller.signal.aborted) failureToast('Failed to fetch the checkpoints', error);
      });
    return () => controller.abort();
  }, []);

  function download() {
    if (!answer) return;
    const lines = answer.checkpoints.map(({ trusted: _trusted, ...checkpoint }) => JSON.stringify(checkpoint)).join('\n');
    const fileName = `honeylend-checkpoints-${new Date().toISOString().slice(0, 10)}.ndjson`;
    saveBlob(new Blob([`${lines}\n`], { type: 'application/x-ndjson' }), fileName);
    successToast('Checkpoints saved', `${fileName}: keep it away from the server.`);
  }

  return (
    <>
      <PageHeader title="Signed checkpoints">
        <Button onClick={download} disabled={!answer || answer.checkpoints.length === 0}>
          Download checkpoints
        </Button>
      </PageHeader>
      <Card size="small">
        <Typography.Paragraph>
          Trusted signing key: <code>{answer?.publicKeys.join(', ') || '—'}</code> (compare with <code>lending audit public-key</code>).
        </Typography.Paragraph>
        <Table<AuditCheckpointEntry>
          rowKey="recordedAt"
          size="small"
          loading={!answer}
          dataSource={answer?.checkpoints ?? []}
          locale={{ emptyText: 'No checkpoint signed yet' }}
          columns={[
            { title: 'Position', dataIndex: 'position' },
            { title: 'Hash there', dataIndex: 'hash', render: (hash: string) => <code title={hash}>{shortHash(hash)}</code> },
            { title: 'Signed at (Manila)', dataIndex: 'time', render: (time: string) => formatDateTime(time) },
            { title: 'Kept at position', dataIndex: 'recordedAt' },
            { title: 'Signature', key: 'trusted', render: (_, checkpoint) => (checkpoint.trusted ? <Tag color="green">trusted key</Tag> : <Tag color="red">not a trusted key</Tag>) },
          ]}
        />
      </Card>
    </>
  );
}

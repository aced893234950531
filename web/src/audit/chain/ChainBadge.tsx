import type { LatestVerificationAnswer, VerifyJobAnswer } from '@honeylend/contracts';
import { Alert, Button, Progress, Space, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { apiRequest } from '../../shared/api';
import { formatDateTime } from '../../shared/money';
import { failureToast } from '../../console/adminApi';
import { useAuditJobUpdates } from '../auditFeed';

const REASONS: Record<NonNullable<VerifyJobAnswer['firstBad']>['reason'], string> = {
  'changed-content': 'changed content',
  'missing-event': 'missing event',
  'broken-link': 'broken link',
  'forged-checkpoint': 'forged checkpoint',
  'checkpoint-mismatch': 'the chain does not pass through a signed checkpoint',
};

/**
 * The chain badge (issue 16 item 5): "Verified to position N at time T" after the last run, or
 * the first bad position in red; Verify runs `lending audit verify` on the server, its progress
 * arriving over the socket (and read again once a second, should a message be missed).
 */
export function ChainBadge() {
  const [latest, setLatest] = useState<VerifyJobAnswer | null>(null);
  const [running, setRunning] = useState<VerifyJobAnswer | null>(null);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    apiRequest<LatestVerificationAnswer>('/api/audit/verifications/latest', { signal: controller.signal, cache: 'no-store' })
      .then((answer) => setLatest(answer.latest))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) failureToast('Failed to fetch the last verification', error);
      })
      .finally(() => setLoaded(true));
    return () => controller.abort();
  }, []);

  const settle = useCallback((answer: VerifyJobAnswer) => {
    if (answer.status === 'running') {
      setRunning(answer);
      return;
    }
    setRunning(null);
    setLatest(answer);
  }, []);

  useAuditJobUpdates((update) => {
    if (update.kind === 'verify' && update.verify && running && update.jobId === running.jobId) settle(update.verify);
  });

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      apiRequest<VerifyJobAnswer>(`/api/audit/verify/${running.jobId}`, { cache: 'no-store' })
        .then(settle)
        .catch(() => undefined);
    }, 1000);
    return () => clearInterval(timer);
  }, [running, settle]);

  async function verify() {
    try {
      const { jobId } = await apiRequest<{ jobId: string }>('/api/audit/verify', { method: 'POST', body: {} });
      setRunning({ jobId, status: 'running', from: 1, to: null, verifiedTo: 0, checkedEvents: 0, checkedCheckpoints: 0, firstBad: null, startedAt: new Date().toISOString(), finishedAt: null, error: null });
    } catch (error) {
      failureToast('Verification failed to start', error);
    }
  }

  const action = (
    <Button type="primary" onClick={() => void verify()} loading={running !== null}>
      {running ? 'Verifying…' : 'Verify'}
    </Button>
  );
  let status;
  if (running) {
    const share = running.to ? Math.floor((running.verifiedTo / running.to) * 100) : 0;
    status = (
      <Space>
        <Typography.Text>Verifying the chain: {running.checkedEvents.toLocaleString('en-PH')} events checked</Typography.Text>
        <Progress percent={share} size="small" style={{ width: 160 }} />
      </Space>
    );
  } else if (!latest) {
    status = <Typography.Text type="secondary">{loaded ? 'The chain has not been verified yet.' : 'Reading the last verification…'}</Typography.Text>;
  } else if (latest.error) {
    status = <Typography.Text type="warning">The last verification could not finish: {latest.error}</Typography.Text>;
  } else if (latest.firstBad) {
    status = (
      <Typography.Text type="danger" strong>
        Chain broken at position {latest.firstBad.position}: {REASONS[latest.firstBad.reason]} (checked {formatDateTime(latest.finishedAt ?? latest.startedAt)})
      </Typography.Text>
    );
  } else {
    status = (
      <Typography.Text strong style={{ color: '#237804' }}>
        Chain verified to position {latest.verifiedTo.toLocaleString('en-PH')} at {formatDateTime(latest.finishedAt ?? latest.startedAt)}
      </Typography.Text>
    );
  }
  const type = running || !latest ? 'info' : latest.firstBad ? 'error' : latest.error ? 'warning' : 'success';
  return <Alert className="audit-chain" role="status" aria-label="Chain" type={type} showIcon title={status} action={action} />;
}

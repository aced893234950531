import type { AllowedIpAnswer } from '@honeylend/contracts';
import { Alert, Button, Card, Input, List, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { apiRequest } from '../../shared/api';
import { toast } from '../../shared/toast/toastStore';
import { formatDateTime } from '../../shared/money';
import { attempt, failureToast, successToast } from '../../console/adminApi';
import { ConfirmAction } from '../layout/ConfirmAction';

/** Spec §2 'IP Access Restrictions' (main admin only); the server enforces the list on every admin route. */
export function IpRestrictions() {
  const [rules, setRules] = useState<AllowedIpAnswer[]>([]);
  const [loading, setLoading] = useState(true);
  const [ipAddress, setIpAddress] = useState('');
  const [description, setDescription] = useState('');
  const [adding, setAdding] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setRules(await apiRequest<AllowedIpAnswer[]>('/api/admin/allowed-ips', { cache: 'no-store' }));
    } catch (error) {
      failureToast('Failed to fetch allowed IPs', error);
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  async function add() {
    if (!ipAddress.trim()) {
      toast({ variant: 'destructive', title: 'Missing Information', description: 'Please enter an IP address' });
      return;
    }
    setAdding(true);
    const rule = await attempt<AllowedIpAnswer>('Addition Failed', '/api/admin/allowed-ips', { method: 'POST', body: { ipAddress: ipAddress.trim(), description: description.trim() } });
    setAdding(false);
    if (!rule) return;
    setIpAddress('');
    setDescription('');
    successToast('IP address added', `${rule.ipAddress} may now reach the management panel.`);
    void load();
  }

  async function remove(rule: AllowedIpAnswer) {
    const answer = await attempt<{ success: true }>('Removal Failed', `/api/admin/allowed-ips/${rule.id}`, { method: 'DELETE' });
    if (!answer) return;
    successToast('IP address removed', `${rule.ipAddress} is no longer on the list.`);
    void load();
  }

  return (
    <Card title="IP Access Restrictions">
      <Typography.Paragraph type="secondary">When the list has entries, only those addresses (or ranges) reach the management panel. Your own address cannot be left out.</Typography.Paragraph>
      <form
        className="admin-toolbar"
        aria-label="Add IP address"
        onSubmit={(event) => {
          event.preventDefault();
          void add();
        }}
      >
        <Input aria-label="IP address" placeholder="IP address or range, e.g. 203.0.113.7 or 203.0.113.0/24" value={ipAddress} onChange={(event) => setIpAddress(event.target.value)} style={{ width: 460 }} />
        <Input aria-label="Description" placeholder="Description (optional)" value={description} onChange={(event) => setDescription(event.target.value)} style={{ width: 260 }} />
        <Button type="primary" htmlType="submit" loading={adding}>
          Add IP
        </Button>
      </form>
      {!loading && rules.length === 0 ? (
        <Alert type="info" showIcon title="No IP Restrictions Active" description="Any address may reach the management panel." />
      ) : (
        <List
          bordered
          loading={loading}
          dataSource={rules}
          renderItem={(rule) => (
            <List.Item
              actions={[
                <ConfirmAction
                  key="remove"
                  action="Remove"
                  title="Remove IP address"
                  description={`Are you sure you want to remove ${rule.ipAddress} from the allowed list?`}
                  onConfirm={() => remove(rule)}
                  destructive
                />,
              ]}
            >
              <List.Item.Meta title={<Typography.Text code>{rule.ipAddress}</Typography.Text>} description={`${rule.description || 'No description'} · added ${formatDateTime(rule.createdAt)}`} />
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}

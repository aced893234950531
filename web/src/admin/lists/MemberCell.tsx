import { Space, Typography } from 'antd';

/** A list row's member as name over mobile number, or 'Closed account' once the account is closed. */
export function MemberCell({ member }: { member: { fullName: string; phone: string } | null }) {
  return member ? (
    <Space direction="vertical" size={0}>
      <Typography.Text strong>{member.fullName}</Typography.Text>
      <Typography.Text type="secondary" className="admin-nowrap">
        {member.phone}
      </Typography.Text>
    </Space>
  ) : (
    <Typography.Text type="secondary">Closed account</Typography.Text>
  );
}

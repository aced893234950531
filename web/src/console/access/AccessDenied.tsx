import { MESSAGES } from '@honeylend/contracts';
import { Button, Result } from 'antd';
import { Link } from 'react-router-dom';

/** Spec §2: what anyone but staff sees at /management. */
export function AccessDenied() {
  return (
    <Result
      status="403"
      title="Access Denied"
      subTitle={<span role="alert">{MESSAGES.accessDenied}</span>}
      extra={
        <Link to="/admin-login">
          <Button type="primary">Go to admin login</Button>
        </Link>
      }
    />
  );
}

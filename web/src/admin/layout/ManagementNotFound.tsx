import { Button, Result } from 'antd';
import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../../shared/useDocumentTitle';

/** Spec §2: other management paths are a 404. */
export function ManagementNotFound() {
  useDocumentTitle('Page not found');
  return (
    <Result
      status="404"
      title="Page not found"
      subTitle="This management page does not exist."
      extra={
        <Link to="/management">
          <Button type="primary">Go to members</Button>
        </Link>
      }
    />
  );
}

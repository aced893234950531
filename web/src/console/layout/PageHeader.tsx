import { Typography } from 'antd';
import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../shared/useDocumentTitle';

/** A page's title, in the browser tab and as its one heading, with the page's own actions beside it. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <header className="admin-page__header">
      <Typography.Title level={1} style={{ fontSize: 26 }}>
        {title}
      </Typography.Title>
      {children}
    </header>
  );
}

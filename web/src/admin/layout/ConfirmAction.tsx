import { Button, Popconfirm, type ButtonProps, type PopconfirmProps } from 'antd';
import type { ReactNode } from 'react';

export interface ConfirmActionProps {
  /** The button's text, and the confirmation's OK text alike. */
  action: string;
  /** The spec's confirmation: its title and question. */
  title: string;
  description: ReactNode;
  onConfirm: PopconfirmProps['onConfirm'];
  /** A destructive action (delete, remove, reject): the button and the OK button are red. */
  destructive?: boolean;
  /** The button's own look where it differs from a small table-row button. */
  button?: Omit<ButtonProps, 'children' | 'onClick'>;
}

/** Spec §2: every action that changes or removes something is confirmed first. */
export function ConfirmAction({ action, title, description, onConfirm, destructive = false, button }: ConfirmActionProps) {
  return (
    <Popconfirm title={title} description={description} okText={action} okButtonProps={destructive ? { danger: true } : undefined} onConfirm={onConfirm}>
      <Button size="small" danger={destructive} {...button}>
        {action}
      </Button>
    </Popconfirm>
  );
}

import { Button, Popconfirm, type ButtonProps } from 'antd';
import type { ReactNode } from 'react';

export interface ConfirmActionProps {
  /** The button's text, and the confirmation's OK text alike. */
  action: string;
  /** The spec's confirmation: its title and question. */
  title: string;
  description: ReactNode;
  /** May return a promise: the OK button then shows a spinner and the confirmation stays open until it settles. */
  onConfirm: () => void | Promise<unknown>;
  /** A destructive action (delete, remove, reject): the button and the OK button are red. */
  destructive?: boolean;
  /** The button's own look where it differs from a small table-row button. */
  button?: Omit<ButtonProps, 'children' | 'onClick'>;
}

/** Spec §2: every action that changes or removes something is confirmed first. */
export function ConfirmAction({ action, title, description, onConfirm, destructive = false, button }: ConfirmActionProps) {
  return (
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- antd types onConfirm as returning void, but its OK button awaits a returned promise (antd/_util/ActionButton: loading until it settles)
    <Popconfirm title={title} description={description} okText={action} okButtonProps={destructive ? { danger: true } : undefined} onConfirm={onConfirm}>
      <Button size="small" danger={destructive} {...button}>
        {action}
      </Button>
    </Popconfirm>
  );
}

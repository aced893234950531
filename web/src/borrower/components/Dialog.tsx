import { useId, useRef, type ReactNode } from 'react';
import { useModalFocus } from './useModalFocus';

interface DialogProps {
  open: boolean;
  title: string;
  description?: string;
  onClose: () => void;
  /** The dialog's buttons. */
  children: ReactNode;
}

export function Dialog({ open, title, description, onClose, children }: DialogProps) {
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  useModalFocus(open, panel, onClose);
  if (!open) return null;

  return (
    <div className="dialog-backdrop" onClick={(event) => event.target === event.currentTarget && onClose()}>
      <div
        ref={panel}
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
      >
        <h2 id={titleId} className="dialog__title">
          {title}
        </h2>
        {description && (
          <p id={descriptionId} className="dialog__description">
            {description}
          </p>
        )}
        <div className="dialog__actions">{children}</div>
      </div>
    </div>
  );
}

import { useId, useRef, type ReactNode } from 'react';
import { CloseIcon } from './icons';
import { useModalFocus } from './useModalFocus';

interface DialogProps {
  open: boolean;
  title: string;
  description?: ReactNode;
  onClose: () => void;
  /** The dialog's body (a form brings its own DialogActions). */
  children?: ReactNode;
  /** The dialog's buttons, under the body. */
  actions?: ReactNode;
  /** Wider panel for tables (payment schedule, contract). */
  wide?: boolean;
  /** Adds the corner close button (after the content in tab order, so focus starts on the content). */
  closeButton?: boolean;
}

/** A modal dialog: labelled by its title, focus kept inside, Escape and the backdrop close it. */
export function Dialog({ open, title, description, onClose, children, actions, wide, closeButton }: DialogProps) {
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  useModalFocus(open, panel, onClose);
  if (!open) return null;

  return (
    <div className="dialog-backdrop" onClick={(event) => event.target === event.currentTarget && onClose()}>
      <div
        ref={panel}
        className={`dialog${wide ? ' dialog--wide' : ''}${closeButton ? ' dialog--closable' : ''}`}
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
          <div id={descriptionId} className="dialog__description">
            {description}
          </div>
        )}
        {children}
        {actions && <DialogActions>{actions}</DialogActions>}
        {closeButton && (
          <button type="button" className="icon-button dialog__close" aria-label="Close dialog" onClick={onClose}>
            <CloseIcon size={20} />
          </button>
        )}
      </div>
    </div>
  );
}

export function DialogActions({ children }: { children: ReactNode }) {
  return <div className="dialog__actions">{children}</div>;
}

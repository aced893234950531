import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { CloseIcon } from './icons';
import { useCloseOnBack } from './useCloseOnBack';
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
  /**
   * The borrower has typed something not yet saved: a backdrop tap, Escape, the corner button or
   * the back button then ask before discarding it. An explicit Cancel in the form still closes.
   */
  unsavedChanges?: boolean;
}

/**
 * A modal dialog: labelled by its title, focus kept inside; Escape, the backdrop and the phone's
 * back button close it — or, with unsaved changes, ask first.
 */
export function Dialog({ open, title, description, onClose, children, actions, wide, closeButton, unsavedChanges }: DialogProps) {
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const [askingToDiscard, setAskingToDiscard] = useState(false);
  useEffect(() => {
    if (!open || !unsavedChanges) setAskingToDiscard(false);
  }, [open, unsavedChanges]);
  /** Closes, unless there is typed data: then asks. Answers whether it closed. */
  const requestClose = (): boolean => {
    if (unsavedChanges) {
      setAskingToDiscard(true);
      return false;
    }
    onClose();
    return true;
  };
  useModalFocus(open, panel, requestClose);
  useCloseOnBack(open, requestClose);
  if (!open) return null;

  return (
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions -- a click on the backdrop is the mouse's shortcut; the keyboard closes with Escape
    <div className="dialog-backdrop" onClick={(event) => event.target === event.currentTarget && requestClose()}>
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
        {askingToDiscard && (
          <div className="notice notice--warn dialog__discard" role="alertdialog" aria-label="Discard what you typed?">
            <p>
              <strong>Discard what you typed?</strong> It has not been saved.
            </p>
            <div className="dialog__discard-actions">
              {/* eslint-disable-next-line jsx-a11y/no-autofocus -- the question opens in place of the form: focus goes to its safe answer */}
              <button type="button" className="button button--primary" onClick={() => setAskingToDiscard(false)} autoFocus>
                Keep editing
              </button>
              <button type="button" className="button button--secondary" onClick={onClose}>
                Discard
              </button>
            </div>
          </div>
        )}
        {children}
        {actions && <DialogActions>{actions}</DialogActions>}
        {closeButton && (
          <button type="button" className="icon-button dialog__close" aria-label="Close dialog" onClick={requestClose}>
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

import { useState } from 'react';
import { ApiError } from '../../shared/api';
import { toast } from '../../shared/toast/toastStore';
import { Dialog } from '../components/Dialog';
import { exportMyData, requestClosure, saveFile, type ClosureObligation } from './privacyApi';

function obligationsOf(error: unknown): ClosureObligation[] {
  if (!(error instanceof ApiError) || typeof error.data !== 'object' || error.data === null) return [];
  const details = (error.data as { details?: { obligations?: ClosureObligation[] } }).details;
  return Array.isArray(details?.obligations) ? details.obligations : [];
}

/** Profile: the member's rights under RA 10173 — their data as a file, and closing the account. */
export function PrivacyCard() {
  const [downloading, setDownloading] = useState(false);
  const [closing, setClosing] = useState(false);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [refusal, setRefusal] = useState<{ message: string; obligations: ClosureObligation[] } | null>(null);

  async function download() {
    setDownloading(true);
    try {
      saveFile(await exportMyData(), `honeylend-my-data-${new Date().toISOString().slice(0, 10)}.json`);
    } catch (error) {
      toast({ variant: 'destructive', title: 'Download failed', description: (error instanceof Error && error.message) || 'Please try again' });
    } finally {
      setDownloading(false);
    }
  }

  async function close() {
    setClosing(true);
    setRefusal(null);
    try {
      await requestClosure(reason.trim());
      setDialogOpen(false);
    } catch (error) {
      setClosing(false);
      setRefusal({ message: (error instanceof Error && error.message) || 'Please try again', obligations: obligationsOf(error) });
    }
  }

  const shutDialog = () => {
    setDialogOpen(false);
    setRefusal(null);
  };

  return (
    <section className="card" aria-labelledby="privacy-title">
      <h2 id="privacy-title" className="card__title">
        Your data and privacy
      </h2>
      <p className="muted">Under the Data Privacy Act you may take a copy of everything we hold about you, and ask us to close your account and stop processing your data.</p>
      <div className="button-row">
        <button type="button" className="button button--secondary" onClick={() => void download()} disabled={downloading} aria-busy={downloading || undefined}>
          {downloading ? 'Preparing...' : 'Download my data'}
        </button>
        <button type="button" className="button button--secondary" onClick={() => setDialogOpen(true)}>
          Close my account
        </button>
      </div>
      <Dialog
        open={dialogOpen}
        title="Close your account?"
        description="We stop processing your data: you are signed out and cannot sign in again, and your personal details are masked everywhere. The records the law requires stay on our log for 5 years. This needs nothing owed either way: no open loan, no pending withdrawal, an empty wallet."
        onClose={shutDialog}
        unsavedChanges={reason.trim().length > 0 && !closing}
        actions={
          <>
            <button type="button" className="button button--primary" onClick={() => void close()} disabled={closing || reason.trim().length < 3} aria-busy={closing || undefined}>
              {closing ? 'Please wait...' : 'Close my account'}
            </button>
            <button type="button" className="button button--secondary" onClick={shutDialog}>
              Cancel
            </button>
          </>
        }
      >
        <label className="field">
          <span className="field__label">Why are you leaving?</span>
          <textarea className="field__input field__input--multiline" value={reason} maxLength={500} rows={3} onChange={(event) => setReason(event.target.value)} />
        </label>
        {refusal && (
          <div role="alert" className="field__error">
            <p>{refusal.message}</p>
            {refusal.obligations.length > 0 && (
              <ul>
                {refusal.obligations.map((obligation, i) => (
                  <li key={i}>{obligation.message}</li>
                ))}
              </ul>
            )}
          </div>
        )}
      </Dialog>
    </section>
  );
}

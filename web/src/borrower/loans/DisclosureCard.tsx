import { useEffect, useState } from 'react';
import type { DisclosureAnswer, LoanDetailAnswer } from '@honeylend/contracts';
import { apiRequest, ApiError } from '../../shared/api';
import { downloadFile } from '../../shared/downloadFile';
import { formatDateTime } from '../../shared/money';

/** GET /api/loans/:id/disclosure: the final statement's exact text and its SHA-256. */
export function fetchDisclosure(loanId: string): Promise<DisclosureAnswer> {
  return apiRequest<DisclosureAnswer>(`/api/loans/${loanId}/disclosure`);
}

/** POST /api/loans/:id/acceptance: accepts the statement with this hash; answers the loan, disbursed. */
export function acceptDisclosure(loanId: string, hash: string): Promise<LoanDetailAnswer> {
  return apiRequest<LoanDetailAnswer>(`/api/loans/${loanId}/acceptance`, { method: 'POST', body: { hash } });
}

/**
 * RA 3765: the approved loan's final Disclosure Statement, exactly as the server wrote it (the
 * acceptance sends back its SHA-256, so the borrower accepts the very text shown here), a PDF copy
 * to keep, and the acceptance that releases the money. Shown while the approval awaits it.
 */
export function DisclosureCard({ loanId, onAccepted }: { loanId: string; onAccepted: (loan: LoanDetailAnswer) => void }) {
  const [disclosure, setDisclosure] = useState<DisclosureAnswer | null>(null);
  const [read, setRead] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    fetchDisclosure(loanId).then(
      (answer) => current && setDisclosure(answer),
      (error: unknown) => current && setFailure(error instanceof ApiError ? error.message : 'Failed to fetch the Disclosure Statement'),
    );
    return () => {
      current = false;
    };
  }, [loanId]);

  async function accept() {
    if (!disclosure) return;
    setBusy(true);
    setFailure(null);
    try {
      onAccepted(await acceptDisclosure(loanId, disclosure.hash));
    } catch (error) {
      setFailure(error instanceof ApiError ? error.message : 'Failed to accept the Disclosure Statement');
      // A changed statement must be read again before it can be accepted.
      if (error instanceof ApiError && (error.data as { code?: string } | null)?.code === 'STATEMENT_CHANGED') {
        setRead(false);
        fetchDisclosure(loanId).then(setDisclosure, () => undefined);
      }
    } finally {
      setBusy(false);
    }
  }

  async function download() {
    setFailure(null);
    try {
      await downloadFile(`/api/loans/${loanId}/disclosure.pdf`, 'application/pdf', 'disclosure-statement.pdf');
    } catch (error) {
      setFailure(error instanceof ApiError ? error.message : 'Failed to download the PDF');
    }
  }

  return (
    <section className="card disclosure" aria-labelledby="disclosure-title">
      <h2 id="disclosure-title" className="card__title">
        Disclosure Statement
      </h2>
      <p>Your loan is approved. Read the final terms below; the money reaches your wallet once you accept them.</p>
      {disclosure ? (
        <>
          <pre className="disclosure__text" data-testid="disclosure-statement" tabIndex={0}>
            {disclosure.statement}
          </pre>
          <p className="fine-print">
            Accept by {formatDateTime(disclosure.acceptBy)}. Fingerprint (SHA-256): <code data-testid="disclosure-hash">{disclosure.hash}</code>
          </p>
          <label className="checkbox">
            <input type="checkbox" checked={read} onChange={(event) => setRead(event.target.checked)} />
            <span>I have read and understood this Disclosure Statement</span>
          </label>
          <div className="button-row">
            <button type="button" className="button button--secondary" onClick={() => void download()}>
              Download PDF
            </button>
            <button type="button" className="button button--primary" disabled={!read || busy} onClick={() => void accept()}>
              {busy ? 'Accepting...' : 'Accept'}
            </button>
          </div>
        </>
      ) : (
        !failure && (
          <p className="muted" role="status">
            Loading...
          </p>
        )
      )}
      {failure && (
        <p className="field__error" role="alert">
          {failure}
        </p>
      )}
    </section>
  );
}

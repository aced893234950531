import { useEffect, useMemo, useState } from 'react';
import { ApiError } from '../../shared/api';
import { toast } from '../../shared/toast/toastStore';
import { Dialog } from '../components/Dialog';
import { DocumentIcon, UploadIcon } from '../components/icons';
import { ACCEPTED_IMAGE_TYPES, DOCUMENT_KINDS, DOCUMENT_LABELS, DOCUMENT_URL_FIELD, DocumentUploadError, imageContentProblem, imageFileProblem, useProfile, type DocumentKind } from '../stores/profile';
import { useSession, useSignedInUser } from '../stores/session';

type Chosen = Partial<Record<DocumentKind, File>>;

/** Object URLs for the chosen files, released when the choice changes or the card goes away. */
function usePreviewUrls(chosen: Chosen): Partial<Record<DocumentKind, string>> {
  const urls = useMemo(() => {
    const made: Partial<Record<DocumentKind, string>> = {};
    for (const kind of DOCUMENT_KINDS) {
      const file = chosen[kind];
      if (file) made[kind] = URL.createObjectURL(file);
    }
    return made;
  }, [chosen]);
  useEffect(() => () => Object.values(urls).forEach((url) => URL.revokeObjectURL(url)), [urls]);
  return urls;
}

/** Spec §2 'Upload Documents': ID Front, ID Back and Selfie, each previewed; SUBMIT uploads what was chosen. */
export function DocumentsCard() {
  const user = useSignedInUser();
  const uploadDocuments = useProfile((state) => state.uploadDocuments);
  const uploading = useProfile((state) => state.uploading);
  const [chosen, setChosen] = useState<Chosen>({});
  const [errors, setErrors] = useState<Partial<Record<DocumentKind, string>>>({});
  const [previewOpen, setPreviewOpen] = useState(false);
  // Remounting the file inputs empties them once their files are uploaded.
  const [inputsKey, setInputsKey] = useState(0);
  const previews = usePreviewUrls(chosen);
  const uploadedCount = DOCUMENT_KINDS.filter((kind) => user[DOCUMENT_URL_FIELD[kind]]).length;

  function choose(kind: DocumentKind, file: File | undefined) {
    setErrors((current) => ({ ...current, [kind]: undefined }));
    if (!file) {
      setChosen((current) => ({ ...current, [kind]: undefined }));
      return;
    }
    const problem = imageFileProblem(file);
    if (problem) {
      setErrors((current) => ({ ...current, [kind]: problem }));
      setChosen((current) => ({ ...current, [kind]: undefined }));
      return;
    }
    // Only a real image is "Ready to upload"; anything else is named now, not at Submit.
    setChosen((current) => ({ ...current, [kind]: undefined }));
    void imageContentProblem(file).then((contentProblem) => {
      if (contentProblem) setErrors((current) => ({ ...current, [kind]: contentProblem }));
      else setChosen((current) => ({ ...current, [kind]: file }));
    });
  }

  async function submit() {
    if (uploading) return;
    try {
      const saved = await uploadDocuments(chosen);
      if (saved) {
        setChosen({});
        setInputsKey((key) => key + 1);
        toast({ title: 'Documents uploaded', description: 'Your documents have been saved.' });
      }
      const member = useSession.getState().user;
      if (member && DOCUMENT_KINDS.every((kind) => member[DOCUMENT_URL_FIELD[kind]])) setPreviewOpen(true);
      else await useSession.getState().refreshUser();
    } catch (error) {
      if (error instanceof ApiError && error.accountSuspended) return;
      if (error instanceof DocumentUploadError) {
        // Which file was refused, beside that file.
        setErrors((current) => ({ ...current, [error.kind]: error.message }));
        toast({ variant: 'destructive', title: `Upload failed: ${DOCUMENT_LABELS[error.kind]}`, description: error.message });
        return;
      }
      toast({ variant: 'destructive', title: 'Upload failed', description: (error instanceof Error && error.message) || 'Please try again' });
    }
  }

  return (
    <section className="card documents" aria-labelledby="documents-title">
      <div className="card__header">
        <h2 id="documents-title" className="card__title">
          Upload Documents
        </h2>
        <span className={`status-badge status-badge--${uploadedCount === 3 ? 'good' : 'wait'}`}>{uploadedCount} of 3 uploaded</span>
      </div>
      <p className="muted">A clear photo of each side of a government ID, and a selfie. JPEG, PNG or WebP, up to 8 MB each.</p>
      <ul className="documents__list">
        {DOCUMENT_KINDS.map((kind) => {
          const shown = previews[kind] ?? user[DOCUMENT_URL_FIELD[kind]];
          const inputId = `document-${kind}`;
          return (
            <li key={kind} className={`documents__item${errors[kind] ? ' documents__item--invalid' : ''}`}>
              <div className="documents__thumb">{shown ? <img src={shown} alt={`${DOCUMENT_LABELS[kind]} preview`} /> : <DocumentIcon size={28} />}</div>
              <div className="documents__body">
                <p className="documents__name" aria-hidden="true">
                  {DOCUMENT_LABELS[kind]}
                </p>
                <label className="documents__choose">
                  <input
                    key={inputsKey}
                    id={inputId}
                    className="visually-hidden"
                    type="file"
                    accept={ACCEPTED_IMAGE_TYPES.join(',')}
                    aria-label={DOCUMENT_LABELS[kind]}
                    aria-describedby={errors[kind] ? `${inputId}-error` : undefined}
                    aria-invalid={errors[kind] ? true : undefined}
                    onChange={(event) => choose(kind, event.target.files?.[0])}
                  />
                  <UploadIcon size={18} />
                  {shown ? 'Replace image' : 'Choose image'}
                </label>
                <p className="documents__state">{chosen[kind] ? 'Ready to upload' : user[DOCUMENT_URL_FIELD[kind]] ? 'Uploaded' : 'Not uploaded yet'}</p>
                {errors[kind] && (
                  <p id={`${inputId}-error`} className="field__error">
                    {errors[kind]}
                  </p>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      <button type="button" className="button button--primary button--block" onClick={() => void submit()} disabled={uploading} aria-busy={uploading || undefined}>
        {uploading ? 'Please wait...' : 'Submit'}
      </button>
      <Dialog
        open={previewOpen}
        title="Document Preview"
        description="These are the documents on your account."
        onClose={() => setPreviewOpen(false)}
        wide
        closeButton
        actions={
          <button type="button" className="button button--primary" onClick={() => setPreviewOpen(false)}>
            Close
          </button>
        }
      >
        <ul className="document-preview">
          {DOCUMENT_KINDS.map((kind) => (
            <li key={kind}>
              <figure>
                <img src={user[DOCUMENT_URL_FIELD[kind]] ?? ''} alt={DOCUMENT_LABELS[kind]} />
                <figcaption>{DOCUMENT_LABELS[kind]}</figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </Dialog>
    </section>
  );
}

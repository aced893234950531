import type { DocumentKind } from '@honeylend/contracts';

/** How the console names a member's identity documents: in the member form and in the history. */
export const DOCUMENT_LABELS: Readonly<Record<DocumentKind, string>> = { idFront: 'ID (front)', idBack: 'ID (back)', selfie: 'Selfie' };

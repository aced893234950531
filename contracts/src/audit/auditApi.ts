import type { AuditEventAnswer } from '../api.js';

/**
 * The auditor's API (issue 16, design §10): the log with filters, one stream as of a revision or
 * a time, the book as of a date, exports, checkpoints and verification. Money in the book is
 * integer centavos, as in events: an auditor sees the same numbers the log holds.
 */

/** One event of the global log, with its link in the hash chain where the store keeps one. */
export interface AuditLogEvent extends AuditEventAnswer {
  id: string;
  /** Lowercase hex SHA-256 (design §10), or null on a store that keeps no chain (EventStoreDB). */
  hash: string | null;
  prevHash: string | null;
}

/** GET /api/audit/events: `next` is the `from` of the following page (null at the end of what matched). */
export interface AuditEventsAnswer {
  events: AuditLogEvent[];
  next: number | null;
  /** The last position this page looked at (filters may have skipped many). */
  scannedTo: number;
  head: number;
}

/** GET /api/audit/streams/:stream?asOf= */
export interface AuditStreamAnswer {
  stream: string;
  /** The aggregate whose decider folded the state ('member', 'loan', …), or null for a stream no decider owns. */
  aggregate: string | null;
  /** Events in the stream now. */
  revisions: number;
  /** The last event folded: revision -1 when the time asked for is before the stream's first event. */
  asOf: { revision: number; position: number | null; createdAt: string | null };
  /** The stream's events up to and including `asOf.revision`. */
  events: AuditLogEvent[];
  /** The state as the decider's own evolve folds those events (credentials redacted). */
  state: unknown;
  /** The state one revision earlier, so what the last event changed can be shown. */
  previous: unknown;
}

export type VerifyFailureReasonCode = 'changed-content' | 'missing-event' | 'broken-link' | 'forged-checkpoint' | 'checkpoint-mismatch';

/** GET /api/audit/verify/:jobId (also pushed over the socket as it runs). */
export interface VerifyJobAnswer {
  jobId: string;
  status: 'running' | 'passed' | 'failed';
  from: number;
  to: number | null;
  verifiedTo: number;
  checkedEvents: number;
  checkedCheckpoints: number;
  firstBad: { position: number; reason: VerifyFailureReasonCode; detail: string } | null;
  startedAt: string;
  finishedAt: string | null;
  /** Why the run could not finish (the store did not answer); the log itself was not found bad. */
  error: string | null;
}

/** GET /api/audit/verifications/latest */
export interface LatestVerificationAnswer {
  latest: VerifyJobAnswer | null;
}

export interface MoneyCount {
  count: number;
  amountCentavos: number;
}

/** The whole book at one position of the log. */
export interface BookFigures {
  members: { total: number; active: number; pending: number; suspended: number; closed: number };
  loans: {
    /** Per current status: how many, their principal, and what of it is still owed. */
    byStatus: Record<string, { count: number; principalCentavos: number; outstandingPrincipalCentavos: number }>;
    outstandingPrincipalCentavos: number;
    disbursed: MoneyCount;
  };
  wallets: { totalBalanceCentavos: number };
  withdrawals: { pending: MoneyCount; paid: MoneyCount; rejected: MoneyCount };
  repayments: MoneyCount;
  balanceAdjustments: { count: number; netCentavos: number };
}

/** The book at the end of one Manila day, for the chart over time. */
export interface BookSeriesPoint {
  date: string;
  position: number;
  walletsCentavos: number;
  outstandingPrincipalCentavos: number;
  withdrawalsPendingCentavos: number;
  withdrawalsPaidCentavos: number;
  repaymentsCentavos: number;
  members: number;
}

export interface Book {
  /** The last position folded, and when it was recorded. */
  position: number;
  lastEventAt: string | null;
  events: number;
  figures: BookFigures;
  series: BookSeriesPoint[];
}

/** GET /api/audit/book?asOf=: the book when it is ready (cached per position), else the job making it. */
export type BookAnswer = { status: 'ready'; asOf: string; position: number; book: Book } | { status: 'running'; asOf: string; position: number; jobId: string; progress: { folded: number; of: number } };

export interface AuditCheckpointEntry {
  position: number;
  hash: string;
  time: string;
  signature: string;
  publicKey: string;
  /** Where the checkpoint's own event sits in the log. */
  recordedAt: number;
  /** Signed by a key this server trusts. */
  trusted: boolean;
}

/** GET /api/audit/checkpoints */
export interface AuditCheckpointsAnswer {
  /** The trusted public keys (raw Ed25519, base64url), as `lending audit public-key` prints them. */
  publicKeys: string[];
  checkpoints: AuditCheckpointEntry[];
}

/** POST /api/audit/unmask: the member's personal data, shown to this auditor until `unmaskedUntil`. */
export interface UnmaskAnswer {
  memberId: string;
  unmaskedUntil: string;
  member: {
    fullName: string;
    phone: string;
    email: string | null;
    address: string | null;
    referenceName: string | null;
    referencePhone: string | null;
    bankName: string | null;
    bankAccountNumber: string | null;
  };
}

/** Socket.IO `audit.job` in the `audit` room: a verification or a book fold moved on or finished. */
export interface AuditJobUpdate {
  jobId: string;
  kind: 'verify' | 'book';
  state: 'progress' | 'completed' | 'failed';
  verify?: VerifyJobAnswer;
  book?: { position: number; folded: number; of: number };
}

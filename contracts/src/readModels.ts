import type { AdminRole, DocumentKind, MemberStatus, WithdrawalHoldReason } from './events.js';
import type { LoanAccount } from './loans/servicing/loanAccount.js';
import type { ClosureRecord } from './privacyRecords.js';

/**
 * Read-model documents as projections store them in Redis. Money stays in centavos here;
 * the API turns it into pesos. Every document carries `version`: the global position of the
 * event that last changed it, so a client can drop anything older than what it holds.
 */
export interface MemberDoc {
  id: string;
  phone: string;
  fullName: string;
  email: string | null;
  address: string | null;
  countryOfWork: string | null;
  monthlySalaryCentavos: number | null;
  referenceName: string | null;
  referencePhone: string | null;
  bankName: string | null;
  bankAccountNumber: string | null;
  balanceCentavos: number;
  creditScore: number;
  status: MemberStatus;
  /** File ids of the identity documents (the API turns them into short-lived signed URLs). */
  documents: Record<DocumentKind, string | null>;
  /** The latest hold on new withdrawals (it may have ended: compare `until` with the time). */
  withdrawalHold?: { until: string; reason: WithdrawalHoldReason } | null;
  /** The member proved `phone` with a code texted to it (absent in documents written before this existed: not proved). */
  phoneVerified?: boolean;
  /** A person of the demo (`lending seed`): the workers never text them (absent: a real member). */
  demo?: true;
  /** The privacy notice the member last consented to (absent: never). */
  consent?: { noticeVersion: string; givenAt: string } | null;
  /** The member's latest request to close the account, and its outcome (absent: none). A closed account's personal fields are masked. */
  closure?: ClosureRecord | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface FileDoc {
  id: string;
  memberId: string;
  contentType: 'image/jpeg' | 'image/png' | 'image/webp';
  sizeBytes: number;
  uploadedAt: string;
}

export interface LoanDoc {
  id: string;
  memberId: string;
  loanNumber: string;
  amountCentavos: number;
  termMonths: number;
  monthlyRateBps: number;
  purpose: string;
  status: string;
  /** The latest message to the borrower about this loan (e.g. what to fix for account_issue). */
  statusMessage: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
  /** When an admin approved it; the borrower's acceptance period runs from here (absent before approval). */
  approvedAt?: string | null;
  /** When the borrower accepted the Disclosure Statement (RA 3765), and its SHA-256; absent before. */
  termsAcceptedAt?: string | null;
  termsHash?: string | null;
  /** The business date of that acceptance: the schedule counts from it (absent before, and on older acceptances). */
  termsAcceptedOn?: string | null;
  /** The servicing facts once disbursement opened the account (absent before); answers fold them. */
  account?: LoanAccount | null;
  /** Revision of the loan's stream this document reflects: the day close appends expecting it. */
  streamRevision?: number;
  /** When the borrower was last reminded of a payment (SMS and notification). */
  lastReminderAt?: string | null;
  /** What this active loan adds to the portfolio and collections indexes, as they were last moved (null when it adds nothing). */
  book?: { bucket: string; principalCentavos: number; daysPastDue: number } | null;
}

/** rm:portfolio: the book by delinquency bucket, kept as servicing events arrive. */
export interface PortfolioStats {
  /** Outstanding principal and number of active loans per bucket. */
  principalCentavosByBucket: Record<string, number>;
  loansByBucket: Record<string, number>;
  /** Repayments received (less reversals) per business month, YYYY-MM. */
  repaidCentavosByMonth: Record<string, number>;
}

export interface WithdrawalDoc {
  id: string;
  memberId: string;
  withdrawalNumber: string;
  amountCentavos: number;
  bankName: string;
  bankAccountNumber: string;
  status: 'pending' | 'completed' | 'rejected';
  reason: string | null;
  createdAt: string;
  processedAt: string | null;
  /** The transfer's reference (GCash, InstaPay, bank) once paid out, when the admin recorded one; absent in documents built before it existed. */
  payoutReference?: string | null;
  version: number;
}

export interface NotificationDoc {
  id: string;
  memberId: string;
  title: string;
  message: string;
  type: string;
  createdAt: string;
  read: boolean;
  version: number;
}

export interface WithdrawalStats {
  total: number;
  processed: number;
  pending: number;
  rejected: number;
  /** Requested and not refused: pending and completed withdrawals. */
  totalAmountCentavos: number;
  /** Refused (rejected) withdrawals, refunded to the wallets. */
  rejectedAmountCentavos: number;
}

/** rm:loans:stats: counters the loans projection keeps as events arrive. */
export interface LoanStats {
  total: number;
  /** Loans per current status (built-in and custom). */
  byStatus: Record<string, number>;
  /** Principal of every loan still on the books (deleted applications leave the sum). */
  totalAmountCentavos: number;
  disbursedAmountCentavos: number;
}

/** rm:members:stats */
export interface MemberStats {
  total: number;
  active: number;
  pending: number;
  suspended: number;
  /** Sum of every wallet: what the platform owes its members right now. */
  totalBalanceCentavos: number;
}

/** One entry of the admin IP allow-list (rm:settings:allowed-ips). */
export interface AllowedIpDoc {
  id: string;
  /** A canonical address (203.0.113.7, 2001:db8::1) or CIDR range (203.0.113.0/24). */
  ipAddress: string;
  description: string;
  createdAt: string;
  createdBy: string | null;
}

export interface AdminDoc {
  id: string;
  username: string;
  fullName: string;
  email: string | null;
  phone: string | null;
  role: AdminRole;
  createdAt: string;
  version: number;
}

/** What the API needs on every authenticated request: kept apart so it is one small read. */
export interface AuthRecord {
  role: 'borrower' | AdminRole;
  status: MemberStatus;
  tokenVersion: number;
}

/**
 * The events the web client follows over Socket.IO, each pushed as `{ version, streamId, doc }`
 * (the deletions with `doc: { id }`).
 */
export const REALTIME_EVENTS = [
  'member.updated',
  'member.deleted',
  'loan.updated',
  'loan.deleted',
  'withdrawal.updated',
  'notification.created',
  /** A notification changed (read): the whole document again, with a higher version. */
  'notification.updated',
  'stats.updated',
  'admin.updated',
  'admin.deleted',
  /** A request waiting for a second admin, or its decision (four eyes): the admins' room. */
  'approval.updated',
] as const;

export type RealtimeEvent = (typeof REALTIME_EVENTS)[number];

/** A change-feed entry (Redis stream `rm:changes`): who should hear of it, and the new document. */
export interface ChangeEntry {
  rooms: string[];
  event:
    | RealtimeEvent
    /** Forwarded to the admins' room; no web client follows it. */
    | 'settings.updated'
    /** Not forwarded to clients: tells every API node to end this account's sockets (`doc: { id, reason }`). */
    | 'session.revoked';
  doc: unknown;
  version: number;
}

/**
 * A pub/sub channel of the keyspace `prefix` in Redis database `db`. Pub/sub ignores the database
 * index — a message reaches every subscriber of the channel on the server — so two systems on one
 * server, in different databases under the same key prefix, hear each other unless the channel
 * names the database as well as the prefix.
 */
export function pubSubChannel(prefix: string, db: number, name: string): string {
  return `${prefix}db${db}:${name}`;
}

/** Key names of the read models; the prefix lets tests, benchmarks and rebuilds use their own keyspace. */
export function readModelKeys(prefix = '') {
  const rm = `${prefix}rm:`;
  return {
    prefix: rm,
    member: (id: string) => `${rm}member:${id}`,
    admin: (id: string) => `${rm}admin:${id}`,
    auth: (id: string) => `${rm}auth:${id}`,
    members: `${rm}members`,
    membersByStatus: (status: string) => `${rm}members:status:${status}`,
    /** Hash member id → lowercased search text (name, email, phone in its written forms). */
    memberSearch: `${rm}members:search`,
    /** Hash member id → the same text of the member as masked (what an auditor who has not unmasked them is shown). */
    memberMaskedSearch: `${rm}members:search:masked`,
    memberStats: `${rm}members:stats`,
    /** Members who asked to close their account (RA 10173), by request time: `requested` (all), `refused`, `closed`. */
    membersByClosure: (outcome: 'requested' | 'refused' | 'closed') => `${rm}members:closure:${outcome}`,
    admins: `${rm}admins`,
    file: (id: string) => `${rm}file:${id}`,
    loan: (id: string) => `${rm}loan:${id}`,
    loans: `${rm}loans`,
    loansByMember: (memberId: string) => `${rm}loans:member:${memberId}`,
    loansByStatus: (status: string) => `${rm}loans:status:${status}`,
    /** Hash loan id → "<member id>\n<lowercased loan number and status>"; the member's own text is joined at query time. */
    loanSearch: `${rm}loans:search`,
    loanStats: `${rm}loans:stats`,
    /** Hash loan number → loan id (payment providers name loans by number). */
    loansByNumber: `${rm}loans:by-number`,
    /** Sorted set of overdue active loans scored by days past due (collections, most overdue first). */
    loansOverdue: `${rm}loans:overdue`,
    loansOverdueByBucket: (bucket: string) => `${rm}loans:overdue:${bucket}`,
    /** Hash: principal:<bucket>, count:<bucket>, repaid:<YYYY-MM> in centavos (PortfolioStats). */
    portfolio: `${rm}portfolio`,
    withdrawal: (id: string) => `${rm}withdrawal:${id}`,
    withdrawals: `${rm}withdrawals`,
    withdrawalsByMember: (memberId: string) => `${rm}withdrawals:member:${memberId}`,
    withdrawalStats: `${rm}withdrawals:stats`,
    withdrawalsByStatus: (status: string) => `${rm}withdrawals:status:${status}`,
    /** Hash withdrawal id → "<member id>\n<lowercased number, bank and account>". */
    withdrawalSearch: `${rm}withdrawals:search`,
    /** Hash withdrawal id → the same text with the account number masked. */
    withdrawalMaskedSearch: `${rm}withdrawals:search:masked`,
    /** JSON AllowedIpDoc[]: the admin IP allow-list the API enforces. */
    allowedIps: `${rm}settings:allowed-ips`,
    /** JSON string[]: admin-defined loan statuses, in the order they were added. */
    customLoanStatuses: `${rm}settings:loan-statuses`,
    /** JSON CompanyDetails: the lender's legal identity (absent until set). */
    company: `${rm}settings:company`,
    /** Four eyes (design §11): ApprovalDoc by id, all by request time, by status; the settings (ApprovalSettings). */
    approval: (id: string) => `${rm}approval:${id}`,
    approvals: `${rm}approvals`,
    approvalsByStatus: (status: string) => `${rm}approvals:status:${status}`,
    /** JSON string[]: the requests naming a member (so closing the account masks them). */
    approvalsByMember: (memberId: string) => `${rm}approvals:member:${memberId}`,
    approvalSettings: `${rm}settings:approvals`,
    notificationsByMember: (memberId: string) => `${rm}notifications:member:${memberId}`,
    /** JSON NotificationDoc of one notification as it is now (read or not). */
    notification: (id: string) => `${rm}notification:${id}`,
    /** Hash notification id → the position of the event that marked it read. */
    notificationsRead: (memberId: string) => `${rm}notifications:read:${memberId}`,
    /** Hash member id → ISO time until which this auditor sees the member unmasked (AuditorUnmasked). */
    auditUnmasked: (staffId: string) => `${rm}audit:unmasked:${staffId}`,
    changes: `${rm}changes`,
    /** Position of the last event every projection has applied. */
    checkpoint: `${rm}checkpoint`,
    projectionCheckpoint: (projection: string) => `${rm}checkpoint:${projection}`,
    /** The event store the checkpoints are positions of: "<adapter>:<store id>" (positions mean nothing in another store). */
    storeIdentity: `${rm}checkpoint-store`,
    /** Pub/sub channel on which the checkpoint is announced, to wake read-your-writes waiters; `db`: the Redis database of the read models. */
    progressChannel: (db: number) => pubSubChannel(prefix, db, 'rm:progress'),
    /**
     * The projection runners' leader lease: the fencing token of the runner that may write, with a
     * time to live. Outside the read models' own keys, so a rebuild never replaces it.
     */
    projectionLeader: `${prefix}projections:leader`,
    /** Counter the fencing tokens are drawn from: each new leader's token is larger than every earlier one. */
    projectionLeaderFence: `${prefix}projections:leader-fence`,
  };
}
export type ReadModelKeys = ReturnType<typeof readModelKeys>;

export const rooms = {
  member: (memberId: string) => `member:${memberId}`,
  admins: 'admins',
  /** Auditors and the main admin: the live log and the audit jobs' progress (never members' documents). */
  audit: 'audit',
  /** The main admin alone: what only they may read (the IP allow-list). */
  mainAdmin: 'main-admin',
};

import type { AdminRole, DocumentKind, MemberStatus } from './events.js';

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
  totalAmountCentavos: number;
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

/** A change-feed entry (Redis stream `rm:changes`): who should hear of it, and the new document. */
export interface ChangeEntry {
  rooms: string[];
  event: 'member.updated' | 'loan.updated' | 'withdrawal.updated' | 'notification.created' | 'stats.updated' | 'admin.updated';
  doc: unknown;
  version: number;
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
    admins: `${rm}admins`,
    file: (id: string) => `${rm}file:${id}`,
    loan: (id: string) => `${rm}loan:${id}`,
    loans: `${rm}loans`,
    loansByMember: (memberId: string) => `${rm}loans:member:${memberId}`,
    withdrawal: (id: string) => `${rm}withdrawal:${id}`,
    withdrawals: `${rm}withdrawals`,
    withdrawalsByMember: (memberId: string) => `${rm}withdrawals:member:${memberId}`,
    withdrawalStats: `${rm}withdrawals:stats`,
    notificationsByMember: (memberId: string) => `${rm}notifications:member:${memberId}`,
    changes: `${rm}changes`,
    /** Position of the last event every projection has applied. */
    checkpoint: `${rm}checkpoint`,
    projectionCheckpoint: (projection: string) => `${rm}checkpoint:${projection}`,
    /** Pub/sub channel on which the checkpoint is announced, to wake read-your-writes waiters. */
    progressChannel: `${rm}progress`,
  };
}
export type ReadModelKeys = ReturnType<typeof readModelKeys>;

export const rooms = {
  member: (memberId: string) => `member:${memberId}`,
  admins: 'admins',
};

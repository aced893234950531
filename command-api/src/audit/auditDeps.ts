import type { KeyObject } from 'node:crypto';
import type { ApiDeps } from '../platform/context/context.js';
import type { AuditJobs } from './jobs/auditJobs.js';

/** What the auditor's routes need beyond every route's deps. */
export interface AuditDeps {
  /** The auditor's jobs (verification, the book) and the public keys whose checkpoint signatures count. */
  audit: { jobs: AuditJobs; trustedKeys: readonly KeyObject[] };
}

export type AuditApiDeps = ApiDeps & AuditDeps;

import { centavosToPesos, formatPesos } from './money.js';

/*
 * Data privacy (RA 10173) without zod: what the browser needs (answers, the notice version) stays
 * out of the validation library's chunk (issue 20's first-load budget).
 */

/**
 * The data privacy notice (RA 10173, the Data Privacy Act of 2012). Its version names the text a
 * member consented to: a new version (a changed notice) asks every member again at their next
 * sign-in, and no loan application goes through without consent to the version in force.
 * Change the text in command-api/src/members/privacy/privacyNotice.ts and bump this with it.
 */
export const PRIVACY_NOTICE_VERSION = '2026-11-25';

/** What keeps an account open: money owed or held on either side. */
export type ClosureObligation = { kind: 'loan'; loanId: string } | { kind: 'withdrawal'; withdrawalId: string } | { kind: 'wallet'; balanceCentavos: number };

/** The closure of an account as the read models keep it (and admins see it). */
export interface ClosureRecord {
  requestedAt: string;
  reason: string;
  /** `closed`: done; `refused`: obligations were open when asked (the latest request's outcome). */
  outcome: 'closed' | 'refused';
  closedAt: string | null;
  obligations: ClosureObligation[];
}

/** The closure as an answer speaks: money in pesos. */
export interface ClosureAnswer {
  requestedAt: string;
  reason: string;
  outcome: 'closed' | 'refused';
  closedAt: string | null;
  obligations: ClosureObligationAnswer[];
}

export type ClosureObligationAnswer = { kind: 'loan'; loanId: string; message: string } | { kind: 'withdrawal'; withdrawalId: string; message: string } | { kind: 'wallet'; balance: number; message: string };

export function toClosureObligationAnswer(obligation: ClosureObligation): ClosureObligationAnswer {
  switch (obligation.kind) {
    case 'loan':
      return { kind: 'loan', loanId: obligation.loanId, message: 'A loan application or loan is still open: it must be repaid, denied or cancelled first.' };
    case 'withdrawal':
      return { kind: 'withdrawal', withdrawalId: obligation.withdrawalId, message: 'A withdrawal is still pending review: it must be completed or rejected first.' };
    case 'wallet':
      return {
        kind: 'wallet',
        balance: centavosToPesos(obligation.balanceCentavos),
        message: `Your wallet holds ${formatPesos(obligation.balanceCentavos)}: withdraw it to your bank account first.`,
      };
  }
}

export function toClosureAnswer(record: ClosureRecord): ClosureAnswer {
  return { ...record, obligations: record.obligations.map(toClosureObligationAnswer) };
}

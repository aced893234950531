import { z } from 'zod';
import { formatPesos } from './money.js';

/**
 * Four eyes on money (design §11, maker-checker after Apache Fineract): the admin commands that
 * move money or change a member's identity can require a second, different admin's approval. The
 * command is recorded with its full body (`ApprovalRequested`) and runs only when another admin
 * grants it; it can be rejected with a reason, and it expires after APPROVAL_TTL_HOURS.
 */
export const APPROVAL_KINDS = ['balance_adjustment', 'withdrawal_completion', 'loan_approval', 'penalty_waiver', 'repayment_reversal', 'phone_change'] as const;
export const approvalKindSchema = z.enum(APPROVAL_KINDS);
export type ApprovalKind = z.infer<typeof approvalKindSchema>;

/** What each kind is called on the Approvals page, in the Settings and in the auditor's log. */
export const APPROVAL_KIND_LABELS: Record<ApprovalKind, string> = {
  balance_adjustment: 'Balance adjustment',
  withdrawal_completion: 'Withdrawal completion',
  loan_approval: 'Loan approval',
  penalty_waiver: 'Penalty waiver',
  repayment_reversal: 'Repayment reversal',
  phone_change: "Member's phone change",
};

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'expired'] as const;
export const approvalStatusSchema = z.enum(APPROVAL_STATUSES);
export type ApprovalStatus = z.infer<typeof approvalStatusSchema>;

/** A request not decided within this many hours expires (and never runs). */
export const APPROVAL_TTL_HOURS = 24;
/**
 * How long after a grant its command counts as stopped rather than still running (the process
 * stopped between the grant and the command). The command takes well under a second; a minute
 * leaves no doubt, so a second run never races the first one.
 */
export const EXECUTION_RESUME_AFTER_MS = 60_000;

/** Out of the box every kind needs a second admin; completions from ₱50,000 and loan approvals from ₱500,000. */
export const DEFAULT_WITHDRAWAL_THRESHOLD_CENTAVOS = 50_000_00;
export const DEFAULT_LOAN_APPROVAL_THRESHOLD_CENTAVOS = 500_000_00;

const uuid = z.uuid();
const isoTime = z.iso.datetime();
const centavos = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const signedCentavos = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
const reason = z.string().min(1).max(500);

/** The command waiting for a second admin, with everything needed to run it later exactly as asked. */
export const approvalCommandSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('balance_adjustment'), memberId: uuid, amountCentavos: signedCentavos, reason }).strict(),
  z
    .object({
      kind: z.literal('withdrawal_completion'),
      memberId: uuid,
      withdrawalId: uuid,
      withdrawalNumber: z.string().max(40),
      amountCentavos: centavos,
      processedAt: isoTime.nullable(),
      payoutReference: z.string().max(64).nullable(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('loan_approval'),
      memberId: uuid,
      loanId: uuid,
      loanNumber: z.string().max(40),
      amountCentavos: centavos,
      /**
       * The term and rate the request was made for, beside the amount: a grant approves exactly these
       * terms, and runs only while the loan still has them (design §11). Absent from requests recorded
       * before terms were bound, which therefore never run: they ask for a new request.
       */
      termMonths: z.number().int().positive().optional(),
      monthlyRateBps: z.number().int().nonnegative().optional(),
      message: z.string().max(1000).nullable(),
      notify: z.union([z.boolean(), z.object({ title: z.string().max(200).optional(), message: z.string().max(1000).optional() }).strict()]).nullable(),
    })
    .strict(),
  z.object({ kind: z.literal('penalty_waiver'), memberId: uuid, loanId: uuid, loanNumber: z.string().max(40), amountCentavos: centavos, reason }).strict(),
  z.object({ kind: z.literal('repayment_reversal'), memberId: uuid, loanId: uuid, loanNumber: z.string().max(40), repaymentId: uuid, amountCentavos: centavos, reason }).strict(),
  z
    .object({
      kind: z.literal('phone_change'),
      memberId: uuid,
      fromPhone: z.string().max(20),
      phone: z.string().max(20),
      /** The whole edit as the admin sent it (parsed): it runs as one when approved. */
      update: z.record(z.string(), z.unknown()),
    })
    .strict(),
]);
export type ApprovalCommand = z.infer<typeof approvalCommandSchema>;

export const approvalSettingsSchema = z
  .object({
    /** Which kinds need a second admin. */
    required: z.object(Object.fromEntries(APPROVAL_KINDS.map((kind) => [kind, z.boolean()])) as Record<ApprovalKind, z.ZodBoolean>).strict(),
    /** A withdrawal completion needs approval from this amount up. */
    withdrawalThresholdCentavos: centavos,
    /** A loan approval needs approval from this amount up. */
    loanApprovalThresholdCentavos: centavos,
  })
  .strict();
export type ApprovalSettings = z.infer<typeof approvalSettingsSchema>;

export const DEFAULT_APPROVAL_SETTINGS: ApprovalSettings = {
  required: Object.fromEntries(APPROVAL_KINDS.map((kind) => [kind, true])) as Record<ApprovalKind, boolean>,
  withdrawalThresholdCentavos: DEFAULT_WITHDRAWAL_THRESHOLD_CENTAVOS,
  loanApprovalThresholdCentavos: DEFAULT_LOAN_APPROVAL_THRESHOLD_CENTAVOS,
};

/** Whether this command needs a second admin under these settings. */
export function needsApproval(settings: ApprovalSettings, command: ApprovalCommand): boolean {
  if (!settings.required[command.kind]) return false;
  if (command.kind === 'withdrawal_completion') return command.amountCentavos >= settings.withdrawalThresholdCentavos;
  if (command.kind === 'loan_approval') return command.amountCentavos >= settings.loanApprovalThresholdCentavos;
  return true;
}

/**
 * What a request is about, where only one request may wait at a time: the loan to approve, the
 * repayment to reverse, the withdrawal to complete, the member whose phone changes. Null for an
 * adjustment or a waiver, of which a member or loan may rightly have several.
 */
export function approvalTarget(command: ApprovalCommand): string | null {
  switch (command.kind) {
    case 'loan_approval':
      return `loan:${command.loanId}`;
    case 'repayment_reversal':
      return `repayment:${command.repaymentId}`;
    case 'withdrawal_completion':
      return `withdrawal:${command.withdrawalId}`;
    case 'phone_change':
      return `phone:${command.memberId}`;
    default:
      return null;
  }
}

/** The money a command moves, in centavos (signed for an adjustment), or null when it moves none (a phone change). */
export function approvalAmountCentavos(command: ApprovalCommand): number | null {
  return command.kind === 'phone_change' ? null : command.amountCentavos;
}

/** The events of an approval's stream (approval-<id>) and the settings stream (settings-approvals). */
export const approvalEventSchemas = {
  /** A maker asked for a command that needs a second admin: nothing of it happens yet. */
  ApprovalRequested: z
    .object({
      approvalId: uuid,
      command: approvalCommandSchema,
      makerId: uuid,
      /** The maker's own words: why (the adjustment's or waiver's reason, or the admin's note). */
      reason: z.string().max(500),
      requestedAt: isoTime,
      expiresAt: isoTime,
    })
    .strict(),
  /** A different admin approved: the command's own events follow. */
  ApprovalGranted: z.object({ approvalId: uuid, checkerId: uuid, grantedAt: isoTime }).strict(),
  /** The command ran after the grant: `ok`, or refused by its own rules at that moment (e.g. the balance no longer covers a debit). */
  ApprovalExecuted: z.object({ approvalId: uuid, outcome: z.enum(['done', 'refused']), code: z.string().max(80).nullable(), message: z.string().max(500).nullable(), executedAt: isoTime }).strict(),
  ApprovalRejected: z.object({ approvalId: uuid, rejectedBy: uuid, reason: z.string().min(1).max(500), rejectedAt: isoTime }).strict(),
  ApprovalExpired: z.object({ approvalId: uuid, expiredAt: isoTime }).strict(),
  /** The main admin chose which commands need a second admin, and the thresholds. */
  ApprovalSettingsChanged: z.object({ settings: approvalSettingsSchema, changedAt: isoTime }).strict(),
} as const;

/** GET /api/admin/approvals rows and the `approval.updated` pushes (money in pesos). */
export interface ApprovalAnswer {
  id: string;
  kind: ApprovalKind;
  kindLabel: string;
  /** One line: what will happen when approved. */
  summary: string;
  /** Pesos the command moves (signed for an adjustment), or null. */
  amount: number | null;
  memberId: string;
  memberName: string | null;
  /** The loan the command is about (an approval, a waiver, a reversal), or null. */
  loanId: string | null;
  /** What only one request may wait on at a time (`repayment:<id>`, `loan:<id>`…; see approvalTarget), or null. */
  target: string | null;
  maker: { id: string; name: string | null };
  reason: string;
  status: ApprovalStatus;
  requestedAt: string;
  expiresAt: string;
  decidedBy: { id: string; name: string | null } | null;
  decidedAt: string | null;
  rejectionReason: string | null;
  /** After approval: whether the command ran, or its own rules refused it at that moment. */
  execution: { outcome: 'done' | 'refused' | 'running'; message: string | null } | null;
  version: number;
}

/** The read model's document (centavos inside). */
export interface ApprovalDoc {
  id: string;
  command: ApprovalCommand;
  makerId: string;
  makerName: string | null;
  memberName: string | null;
  reason: string;
  status: ApprovalStatus;
  requestedAt: string;
  expiresAt: string;
  decidedById: string | null;
  decidedByName: string | null;
  decidedAt: string | null;
  rejectionReason: string | null;
  execution: { outcome: 'done' | 'refused' | 'running'; message: string | null } | null;
  version: number;
}

const pesos = formatPesos;

/** What the command will do, in one line. */
export function approvalSummary(command: ApprovalCommand, memberName: string | null): string {
  const who = memberName ?? 'the member';
  switch (command.kind) {
    case 'balance_adjustment':
      return `${command.amountCentavos >= 0 ? 'Credit' : 'Debit'} ${pesos(Math.abs(command.amountCentavos))} ${command.amountCentavos >= 0 ? 'to' : 'from'} ${who}'s wallet`;
    case 'withdrawal_completion':
      return `Complete withdrawal ${command.withdrawalNumber} of ${pesos(command.amountCentavos)} for ${who}`;
    case 'loan_approval':
      return `Approve loan ${command.loanNumber} of ${pesos(command.amountCentavos)} for ${who}`;
    case 'penalty_waiver':
      return `Waive ${pesos(command.amountCentavos)} of late charges on loan ${command.loanNumber}`;
    case 'repayment_reversal':
      return `Reverse a repayment of ${pesos(command.amountCentavos)} on loan ${command.loanNumber}`;
    case 'phone_change':
      return `Change ${who}'s phone number to ${command.phone}`;
  }
}

export function toApprovalAnswer(doc: ApprovalDoc): ApprovalAnswer {
  const amount = approvalAmountCentavos(doc.command);
  return {
    id: doc.id,
    kind: doc.command.kind,
    kindLabel: APPROVAL_KIND_LABELS[doc.command.kind],
    summary: approvalSummary(doc.command, doc.memberName),
    amount: amount === null ? null : amount / 100,
    memberId: doc.command.memberId,
    memberName: doc.memberName,
    loanId: 'loanId' in doc.command ? doc.command.loanId : null,
    target: approvalTarget(doc.command),
    maker: { id: doc.makerId, name: doc.makerName },
    reason: doc.reason,
    status: doc.status,
    requestedAt: doc.requestedAt,
    expiresAt: doc.expiresAt,
    decidedBy: doc.decidedById ? { id: doc.decidedById, name: doc.decidedByName } : null,
    decidedAt: doc.decidedAt,
    rejectionReason: doc.rejectionReason,
    execution: doc.execution,
    version: doc.version,
  };
}

/** The settings as the API speaks them (pesos). */
export interface ApprovalSettingsAnswer {
  required: Record<ApprovalKind, boolean>;
  withdrawalThreshold: number;
  loanApprovalThreshold: number;
}

export function toApprovalSettingsAnswer(settings: ApprovalSettings): ApprovalSettingsAnswer {
  return { required: { ...settings.required }, withdrawalThreshold: settings.withdrawalThresholdCentavos / 100, loanApprovalThreshold: settings.loanApprovalThresholdCentavos / 100 };
}

/** The answer of a command that waits for a second admin (202). */
export interface AwaitingApprovalAnswer {
  approvalId: string;
  status: 'awaiting_approval';
}

import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import { approvalTarget, needsApproval, streams, type ApprovalCommand, type ApprovalDoc, type ApprovalSettings, type AwaitingApprovalAnswer } from '@honeylend/contracts';
import type { EventMetadata } from '@honeylend/eventstore';
import { readAfterWrite } from '../platform/consistency/readAfterWrite.js';
import { handleCommand, loadState } from '../platform/commands/commandHandler.js';
import { DomainError } from '../platform/commands/decider.js';
import { ApiError } from '../platform/errors/apiError.js';
import { callerOf, metadataOf, type ApiDeps } from '../platform/context/context.js';
import { approvalDecider, approvalSettingsDecider, type ApprovalState } from './approval.js';

/** The settings as the log has them (the defaults until the main admin changed them). */
export async function approvalSettings(deps: ApiDeps): Promise<ApprovalSettings> {
  return (await loadState(deps.store, streams.approvalSettings, approvalSettingsDecider)).state.settings;
}

/**
 * The four-eyes gate in front of a money or identity command (design §11). When the settings say
 * this command needs a second admin, it is recorded as `ApprovalRequested` (its full body, the
 * maker, the reason) and nothing of it happens: the route answers 202 `{ approvalId, status:
 * 'awaiting_approval' }` (once the Approvals page can list it). Otherwise null: the route goes on.
 */
export async function requestApprovalIfNeeded(deps: ApiDeps, ctx: Context, command: ApprovalCommand, reason: string): Promise<AwaitingApprovalAnswer | null> {
  if (!needsApproval(await approvalSettings(deps), command)) return null;
  return requestApproval(deps, ctx, command, reason);
}

/** The request still waiting for a second admin about the same thing as `command` (its loan, repayment, withdrawal or phone), if any. */
export async function pendingApprovalLike(deps: ApiDeps, command: ApprovalCommand): Promise<ApprovalDoc | null> {
  const target = approvalTarget(command);
  if (target === null) return null;
  const requests = await deps.readModels.approvalsOfMember(command.memberId);
  return requests.find((request) => request.status === 'pending' && approvalTarget(request.command) === target) ?? null;
}

/**
 * Records `command` as an approval request and answers 202, for a caller that has already judged, on
 * the settings it read, that it needs one. A second request about the same thing while one waits is
 * refused (409 APPROVAL_ALREADY_PENDING): granting both would report two carried out where one did it all.
 */
export async function requestApproval(deps: ApiDeps, ctx: Context, command: ApprovalCommand, reason: string): Promise<AwaitingApprovalAnswer> {
  const waiting = await pendingApprovalLike(deps, command);
  if (waiting) {
    throw new ApiError(409, 'APPROVAL_ALREADY_PENDING', 'This is already waiting for a second admin; approve or reject that request first.', { approvalId: waiting.id });
  }
  const approvalId = randomUUID();
  const makerId = callerOf(ctx).id;
  // Requests expire 24 hours on, by the business clock the expiry job and the grant read.
  const now = (await deps.businessClock.businessNow()).toISOString();
  const result = await handleCommand(deps.store, streams.approval(approvalId), approvalDecider, { type: 'RequestApproval', approvalId, command, makerId, reason, now }, metadataOf(ctx, makerId), { newStream: true });
  const answer: AwaitingApprovalAnswer = { approvalId, status: 'awaiting_approval' };
  await readAfterWrite(ctx, deps.progress, result.position, async () => undefined);
  ctx.status = 202;
  ctx.body = answer;
  return answer;
}

type Position = number | null;

/** A granted approval request whose command is of kind K. */
export type GrantedRequest<K extends ApprovalCommand['kind'] = ApprovalCommand['kind']> = Extract<ApprovalState, { exists: true }> & { command: Extract<ApprovalCommand, { kind: K }> };

/**
 * How an approved command of each kind runs: the very function its route runs, with the body
 * recorded in the request. Each capability that puts a command under four eyes provides its
 * runner beside that command (approvals sit below them and cannot import them); the app gathers
 * them (approvedCommands.ts). Each is idempotent by an id the approval gives it (the adjustment's
 * and the waiver's id is the approval's) or by its own rules (a withdrawal is decided once, a
 * repayment reversed once, a loan approved once), so it happens once. The events name the
 * approving admin as actor and the approval as their cause.
 */
export type ApprovedCommandRunners = {
  [K in ApprovalCommand['kind']]: (deps: ApiDeps, ctx: Context, approval: GrantedRequest<K>, checkerId: string) => Promise<Position>;
};

/** The metadata of the events an approved command appends: the checker as actor, the approval as cause. */
export function approvedMetadata(ctx: Context, approval: GrantedRequest, checkerId: string): EventMetadata {
  return { ...metadataOf(ctx, checkerId), causationId: approval.approvalId };
}

function runApproved(runners: ApprovedCommandRunners, deps: ApiDeps, ctx: Context, approval: Extract<ApprovalState, { exists: true }>, checkerId: string): Promise<Position> {
  const run = runners[approval.command.kind] as (deps: ApiDeps, ctx: Context, approval: GrantedRequest, checkerId: string) => Promise<Position>;
  return run(deps, ctx, approval, checkerId);
}

export interface DecisionOutcome {
  position: Position;
  /** Set when the command's own rules refused it at approval time (the approval is recorded either way). */
  refused: { code: string; message: string } | null;
}

/**
 * A second admin approves: `ApprovalGranted` is appended with the revision read, so of two admins
 * approving at the same moment exactly one wins (the other decides again and gets 409
 * APPROVAL_ALREADY_DECIDED); only the winner runs the command, then records how it went. A grant
 * whose execution was never recorded (the process stopped in between) is carried out by the next
 * approval of a different admin once EXECUTION_RESUME_AFTER_MS have passed; the command's own
 * idempotency (the approval's id, or its own rules) keeps it to once even then.
 */
export async function grantApproval(deps: ApiDeps, ctx: Context, approvalId: string, runners: ApprovedCommandRunners): Promise<DecisionOutcome> {
  const checkerId = callerOf(ctx).id;
  const stream = streams.approval(approvalId);
  const now = (await deps.businessClock.businessNow()).toISOString();
  const granted = await handleCommand(deps.store, stream, approvalDecider, { type: 'GrantApproval', approvalId, checkerId, now }, metadataOf(ctx, checkerId));
  const approval = granted.state;
  if (!approval.exists) throw new ApiError(404, 'APPROVAL_NOT_FOUND', 'Approval request not found');
  let position: Position = granted.position;
  let refused: DecisionOutcome['refused'] = null;
  try {
    position = (await runApproved(runners, deps, ctx, approval, checkerId)) ?? position;
  } catch (error) {
    if (!(error instanceof DomainError || error instanceof ApiError)) throw error;
    refused = { code: error.code, message: error.message };
  }
  const recorded = await handleCommand(
    deps.store,
    stream,
    approvalDecider,
    { type: 'RecordExecution', approvalId, outcome: refused ? 'refused' : 'done', code: refused?.code ?? null, message: refused?.message ?? null, now: (await deps.businessClock.businessNow()).toISOString() },
    metadataOf(ctx, checkerId),
  );
  return { position: recorded.position ?? position, refused };
}

export async function rejectApproval(deps: ApiDeps, ctx: Context, approvalId: string, reason: string): Promise<Position> {
  const adminId = callerOf(ctx).id;
  const result = await handleCommand(
    deps.store,
    streams.approval(approvalId),
    approvalDecider,
    { type: 'RejectApproval', approvalId, rejectedBy: adminId, reason, now: (await deps.businessClock.businessNow()).toISOString() },
    metadataOf(ctx, adminId),
  );
  return result.position;
}

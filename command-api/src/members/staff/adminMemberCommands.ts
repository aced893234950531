import { createHash, randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import { JOB_NAMES, WITHDRAWAL_HOLD_MS, maskPhone, notificationJobOptions, streams, type DocumentKind, type ProfileChanges } from '@honeylend/contracts';
import type { EventMetadata } from '@honeylend/eventstore';
import { handleCommand, loadState } from '../../platform/commands/commandHandler.js';
import { DomainError } from '../../platform/commands/decider.js';
import { ApiError } from '../../platform/errors/apiError.js';
import { callerOf, jobTraceOf, metadataOf, type ApiDeps } from '../../platform/context/context.js';
import { MEMBER_MESSAGES, memberDecider } from '../decide.js';
import { phoneReservationDecider } from '../phoneReservation.js';
import { checkImage } from '../../platform/uploads/checkImage.js';
import { fileIdFromUrl } from '../../platform/uploads/signedFileUrls.js';
import type { AdminMemberUpdate } from './adminMemberBodies.js';

const DOCUMENT_FIELDS = { idFrontUrl: 'idFront', idBackUrl: 'idBack', selfieUrl: 'selfie' } as const;
const PHONE_TAKEN = 'Another account already uses this phone number';

/** The position to wait for before answering (the last append of the command), or null when nothing changed. */
type Position = number | null;

function documentsOf(update: AdminMemberUpdate): Partial<Record<DocumentKind, string>> {
  const documents: Partial<Record<DocumentKind, string>> = {};
  for (const [field, kind] of Object.entries(DOCUMENT_FIELDS) as [keyof typeof DOCUMENT_FIELDS, DocumentKind][]) {
    const value = update[field];
    if (value === undefined) continue;
    // The body schema takes only the URLs an upload answers (documentUrlField): the id is there.
    documents[kind] = fileIdFromUrl(value)!;
  }
  return documents;
}

/** Claims `phone` for the member; true when this call reserved it (false when the member already held it). */
async function reservePhone(deps: ApiDeps, metadata: EventMetadata, memberId: string, phone: string, now: string): Promise<boolean> {
  const { state } = await loadState(deps.store, streams.phone(phone), phoneReservationDecider);
  if (state.reserved && state.memberId === memberId) return false;
  try {
    await handleCommand(deps.store, streams.phone(phone), phoneReservationDecider, { type: 'ReservePhone', phone, memberId, now }, metadata);
    return true;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'ALREADY_REGISTERED') throw new ApiError(409, 'PHONE_TAKEN', PHONE_TAKEN, { fields: { phone: PHONE_TAKEN } });
    throw error;
  }
}

async function releasePhone(deps: ApiDeps, metadata: EventMetadata, memberId: string, phone: string, now: string): Promise<Position> {
  const result = await handleCommand(deps.store, streams.phone(phone), phoneReservationDecider, { type: 'ReleasePhone', phone, memberId, now }, metadata);
  return result.position;
}

export interface UpdateOutcome {
  position: Position;
  suspended: boolean;
}

/**
 * An admin's edit of a member. A new phone number is reserved on its own stream first (so two
 * accounts can never share one), then every change is decided at once on the member's stream,
 * then the old number is freed. Should the member's stream refuse, the number just reserved is
 * released again, so a failed edit holds nothing.
 */
export async function updateMember(
  deps: ApiDeps,
  ctx: Context,
  adminId: string,
  memberId: string,
  update: AdminMemberUpdate,
  /** Whose edit it is when not the caller's: the maker of an approved request (four eyes), whom a second admin let through. */
  on: { id: string; role: 'admin' | 'superadmin' } | null = null,
): Promise<UpdateOutcome> {
  const metadata = metadataOf(ctx, adminId);
  // The business clock: a changed phone holds withdrawals for 24 hours, judged on it.
  const now = (await deps.businessClock.businessNow()).toISOString();
  const { state } = await loadState(deps.store, streams.member(memberId), memberDecider);
  if (!state.exists) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Member not found');
  const { monthlySalary, phone, status, creditScore, idFrontUrl: _front, idBackUrl: _back, selfieUrl: _selfie, ...profile } = update;
  const changes: ProfileChanges = { ...profile, ...(monthlySalary !== undefined ? { monthlySalaryCentavos: monthlySalary } : {}) };
  const documents = documentsOf(update);
  const newPhone = phone !== undefined && phone !== state.phone ? phone : undefined;
  const caller = callerOf(ctx);
  const actor = on ?? { id: adminId, role: caller.role === 'superadmin' ? ('superadmin' as const) : ('admin' as const) };
  // Refused before the new number is reserved (the member's decider refuses it too).
  if (newPhone && actor.role !== 'superadmin') throw new ApiError(403, 'MAIN_ADMIN_ONLY', MEMBER_MESSAGES.phoneByMainAdminOnly);
  const reservedNow = newPhone ? await reservePhone(deps, metadata, memberId, newPhone, now) : false;

  let result;
  try {
    result = await handleCommand(
      deps.store,
      streams.member(memberId),
      memberDecider,
      { type: 'AdminUpdateMember', memberId, changes, documents, actor, now, ...(newPhone ? { phone: newPhone } : {}), ...(status ? { status } : {}), ...(creditScore !== undefined ? { creditScore } : {}) },
      metadata,
    );
  } catch (error) {
    if (newPhone && reservedNow) await releasePhone(deps, metadata, memberId, newPhone, now);
    throw error;
  }
  let position = result.position;
  const moved = result.events.find((event) => event.type === 'MemberPhoneChanged');
  if (moved) {
    position = (await releasePhone(deps, metadata, memberId, moved.data.from, now)) ?? position;
    await textOldNumber(deps, ctx, memberId, moved.data.from, moved.data.to);
  }
  const suspended = result.events.some((event) => event.type === 'MemberStatusChanged' && event.data.to === 'suspended');
  return { position, suspended };
}

/**
 * The number an account had hears that it moved: if the member did not ask for it, they learn it
 * from the phone they still hold, while withdrawals are held (design §7).
 */
async function textOldNumber(deps: ApiDeps, ctx: Context, memberId: string, oldPhone: string, newPhone: string): Promise<void> {
  const notificationId = randomUUID();
  const hours = WITHDRAWAL_HOLD_MS / 3600_000;
  await deps.jobs.notificationQueue.add(
    JOB_NAMES.sendNotification,
    {
      notificationId,
      memberId,
      phone: oldPhone,
      title: 'Phone number changed',
      message: `The phone number of your account was changed to ${maskPhone(newPhone)} by our staff. Withdrawals are paused for ${hours} hours. If you did not ask for this, contact support now.`,
      ...jobTraceOf(ctx),
    },
    notificationJobOptions(notificationId),
  );
}

export async function adjustBalance(
  deps: ApiDeps,
  ctx: Context,
  adminId: string,
  memberId: string,
  adjustment: { amountCentavos: number; reason: string },
  /** An approved adjustment's id is its approval's: however often it is run, it is recorded once. */
  adjustmentId: string = randomUUID(),
): Promise<{ adjustmentId: string; position: Position; balanceCentavos: number }> {
  const result = await handleCommand(
    deps.store,
    streams.member(memberId),
    memberDecider,
    { type: 'AdjustBalance', memberId, adjustmentId, amountCentavos: adjustment.amountCentavos, reason: adjustment.reason, now: deps.now().toISOString() },
    metadataOf(ctx, adminId),
  );
  return { adjustmentId, position: result.position, balanceCentavos: result.state.exists ? result.state.balanceCentavos : 0 };
}

/**
 * Closes the account (refused while money or a loan is still open), then frees its phone number.
 * A retry after a crash between the two finds the account closed and finishes freeing the number.
 */
export async function deleteMember(deps: ApiDeps, ctx: Context, adminId: string, memberId: string): Promise<Position> {
  const metadata = metadataOf(ctx, adminId);
  const now = deps.now().toISOString();
  const result = await handleCommand(deps.store, streams.member(memberId), memberDecider, { type: 'DeleteMember', memberId, now }, metadata);
  if (result.state.exists || !result.state.deleted) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Member not found');
  const released = await releasePhone(deps, metadata, memberId, result.state.phone, now);
  return released ?? result.position;
}

/**
 * An identity document an admin uploads for the member (spec §6): checked by its bytes, stored
 * under a random id, recorded as the member's upload with the admin as uploader, and made that
 * document at once.
 */
export async function uploadDocument(deps: ApiDeps, ctx: Context, adminId: string, memberId: string, kind: DocumentKind, bytes: Buffer): Promise<Position> {
  const contentType = checkImage(bytes);
  const fileId = randomUUID();
  const now = deps.now().toISOString();
  const metadata = metadataOf(ctx, adminId);
  await deps.files.save(fileId, bytes);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const stream = streams.member(memberId);
  await handleCommand(deps.store, stream, memberDecider, { type: 'RecordUpload', memberId, fileId, contentType, sizeBytes: bytes.length, sha256, uploadedBy: adminId, now }, metadata);
  const result = await handleCommand(deps.store, stream, memberDecider, { type: 'AdminUpdateMember', memberId, changes: {}, documents: { [kind]: fileId }, now }, metadata);
  return result.position;
}

import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import { z } from 'zod';
import type { Context, Next } from 'koa';
import { documentKindSchema, memberStatusSchema, streams, type MemberDoc } from '@honeylend/contracts';
import { readAfterWrite } from '../../platform/consistency/readAfterWrite.js';
import { DomainError } from '../../platform/commands/decider.js';
import { ApiError } from '../../platform/errors/apiError.js';
import { callerOf, metadataOf, type ApiDeps } from '../../platform/context/context.js';
import { registerMember } from '../registration.js';
import { receiveUpload } from '../../platform/uploads/receiveUpload.js';
import { STAFF_ROLES, adminAccess } from '../../staff/access/adminAccess.js';
import { listQuery } from '../../platform/lists/listQuery.js';
import { documentsOf, searchPage, type ListAnswer } from '../../platform/lists/searchPage.js';
import { adminMemberAnswer, loadAdminMember } from './adminMemberAnswer.js';
import { adjustBalance, deleteMember, updateMember, uploadDocument } from './adminMemberCommands.js';
import { adminMemberCreateBody, adminMemberUpdateBody, balanceAdjustmentBody, refuseBalanceChange } from './adminMemberBodies.js';
import { idFromPath, pathParam } from '../../platform/http/pathId.js';
import { personalDataView } from '../../staff/personalData/personalDataView.js';
import { endpoint } from '../../platform/http/endpoint.js';
import { requestApprovalIfNeeded } from '../../approvals/fourEyes.js';
import { loadState } from '../../platform/commands/commandHandler.js';
import { phoneReservationDecider } from '../phoneReservation.js';
import { memberDecider } from '../decide.js';
import * as answers from '../../platform/http/answerSchemas.js';

export const membersQuery = listQuery(memberStatusSchema, 'Status must be all, active, pending or suspended').extend({
  /** Members who asked to close their account (RA 10173 sec. 16(e)): any request, the refused ones, or the closed accounts. Takes the place of `status`. */
  closure: z.enum(['requested', 'refused', 'closed'], { error: 'Closure must be requested, refused or closed' }).optional(),
});

/** A member created by an admin: registered as 'admin' with the admin as actor; the answer carries no token for them. */
function createMember(deps: ApiDeps) {
  const doc = {
    summary: 'Register a member as an admin (no token is answered for them)',
    body: adminMemberCreateBody,
    status: 201,
    answer: answers.memberChanged,
    refusals: ['409 ALREADY_REGISTERED', '400 PASSWORD_TOO_COMMON'],
  } as const;
  return endpoint(doc, async (ctx, { body: input }) => {
    const adminId = callerOf(ctx).id;
    let registration;
    try {
      registration = await registerMember(deps.store, input, 'admin', metadataOf(ctx, adminId), await deps.businessClock.businessNow());
    } catch (error) {
      if (error instanceof DomainError && error.code === 'ALREADY_REGISTERED') {
        throw new ApiError(409, 'ALREADY_REGISTERED', 'An account with this phone number already exists', undefined, { alreadyRegistered: true });
      }
      throw error;
    }
    ctx.status = 201;
    const user = await readAfterWrite(ctx, deps.progress, registration.position, () => loadAdminMember(deps, registration.memberId));
    ctx.body = { success: true, user };
  });
}

const memberIdOf = (ctx: Context) => idFromPath(ctx, { code: 'MEMBER_NOT_FOUND', message: 'Member not found' });

/** Members (spec §2 "Members", §6): list and search, create, edit, suspend, adjust a balance, close (a password reset is identity's: staffPasswordResetRoutes). */
export function adminMemberRoutes(deps: ApiDeps): Router {
  const { store, readModels, progress, redis } = deps;
  const keys = readModels.keys;
  const router = new Router({ prefix: '/api/admin/users' });
  router.use(adminAccess(deps));

  router.get(
    '/',
    endpoint({ summary: 'Members: search and list, a page at a time', query: membersQuery, answer: answers.listOf(answers.adminMemberAnswer) }, async (ctx, { query }) => {
      const view = await personalDataView(ctx, deps);
      const { total, ids } = await searchPage(
        redis,
        { ids: query.closure ? keys.membersByClosure(query.closure) : query.status ? keys.membersByStatus(query.status) : keys.members, text: keys.memberSearch, maskedText: keys.memberMaskedSearch },
        query.search,
        (query.page - 1) * query.pageSize,
        query.pageSize,
        view.search,
      );
      const docs = await documentsOf<MemberDoc>(redis, ids, keys.member);
      const answer: ListAnswer<unknown> = { items: await Promise.all(docs.map((doc) => adminMemberAnswer(deps, doc, view))), total, page: query.page, pageSize: query.pageSize };
      ctx.body = answer;
    }),
  );

  router.post('/', createMember(deps));

  router.get(
    '/:id',
    endpoint({ summary: 'One member', answer: answers.adminMemberAnswer }, async (ctx) => {
      ctx.body = await loadAdminMember(deps, memberIdOf(ctx), await personalDataView(ctx, deps));
    }),
  );

  router.put(
    '/:id',
    endpoint(
      {
        summary: "Edit a member's fields (a balance moves only by an adjustment, a password only by a reset; a phone change waits for a second admin when the settings ask for it)",
        body: adminMemberUpdateBody,
        answer: answers.orAwaitingApproval(answers.adminMemberAnswer),
        refusals: ['400 FIELD_NOT_EDITABLE', '409 ALREADY_REGISTERED', '403 MAIN_ADMIN_ONLY', '403 BANK_CHANGE_BY_MEMBER_ONLY', '409 APPROVAL_ALREADY_PENDING'],
      },
      async (ctx, { body: { balance, ...update } }) => {
        const memberId = memberIdOf(ctx);
        const current = await readModels.member(memberId);
        if (!current) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Member not found');
        refuseBalanceChange(balance, current.balanceCentavos / 100);
        // Four eyes (design §11): the main admin's change of a member's phone waits, with the whole edit, for a second admin.
        if (update.phone !== undefined && update.phone !== current.phone && callerOf(ctx).role === 'superadmin') {
          // A number another account holds is refused now, not after a second admin spent their approval on it.
          // (The reservation's own rule decides, as it will when the change runs.)
          const { state: reservation } = await loadState(deps.store, streams.phone(update.phone), phoneReservationDecider);
          if (!(reservation.reserved && reservation.memberId === memberId)) {
            try {
              phoneReservationDecider.decide({ type: 'ReservePhone', phone: update.phone, memberId, now: (await deps.businessClock.businessNow()).toISOString() }, reservation);
            } catch (error) {
              if (error instanceof DomainError && error.code === 'ALREADY_REGISTERED') {
                throw new ApiError(409, 'PHONE_TAKEN', 'Another account already uses this phone number', { fields: { phone: 'Another account already uses this phone number' } });
              }
              throw error;
            }
          }
          const command = { kind: 'phone_change' as const, memberId, fromPhone: current.phone, phone: update.phone, update: update as Record<string, unknown> };
          if (await requestApprovalIfNeeded(deps, ctx, command, '')) return;
        }
        const outcome = await updateMember(deps, ctx, callerOf(ctx).id, memberId, update);
        if (outcome.suspended) await deps.revokeSessions?.(memberId, 'suspended');
        ctx.body = await readAfterWrite(ctx, progress, outcome.position, () => loadAdminMember(deps, memberId));
      },
    ),
  );

  /** Members are closed here; an id that belongs to an admin account goes on to the admin accounts' route. */
  router.delete(
    '/:id',
    endpoint({ summary: 'Close a member (an admin account id goes on to the admin accounts)', answer: answers.deleted, refusals: ['404 MEMBER_NOT_FOUND', '404 ADMIN_NOT_FOUND'] }, async (ctx, _input, next) => {
      const memberId = memberIdOf(ctx);
      if ((await store.readStream(streams.admin(memberId))).length > 0) return next();
      const position = await deleteMember(deps, ctx, callerOf(ctx).id, memberId);
      await deps.revokeSessions?.(memberId, 'deleted');
      await readAfterWrite(ctx, progress, position, async () => undefined);
      ctx.body = { success: true, id: memberId };
    }),
  );

  router.post(
    '/:id/balance-adjustments',
    endpoint(
      {
        summary: "Credit or debit a member's wallet, with a reason (202 awaiting a second admin's approval when the settings ask for one)",
        body: balanceAdjustmentBody,
        status: 201,
        answer: answers.orAwaitingApproval(answers.balanceAdjusted),
        refusals: ['409 BALANCE_BELOW_ZERO', '404 MEMBER_NOT_FOUND'],
      },
      async (ctx, { body: input }) => {
        const memberId = memberIdOf(ctx);
        // Four eyes (design §11): the balance does not move until a different admin approves.
        if (!(await readModels.member(memberId))) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Member not found');
        // A debit the balance does not cover now is refused now (409 BALANCE_BELOW_ZERO), not sent for approval;
        // at approval the adjustment is decided again on the balance of that moment.
        const { state: member } = await loadState(deps.store, streams.member(memberId), memberDecider);
        memberDecider.decide({ type: 'AdjustBalance', memberId, adjustmentId: randomUUID(), amountCentavos: input.amount, reason: input.reason, now: deps.now().toISOString() }, member);
        if (await requestApprovalIfNeeded(deps, ctx, { kind: 'balance_adjustment', memberId, amountCentavos: input.amount, reason: input.reason }, input.reason)) return;
        const adjustment = await adjustBalance(deps, ctx, callerOf(ctx).id, memberId, { amountCentavos: input.amount, reason: input.reason });
        ctx.status = 201;
        const user = await readAfterWrite(ctx, progress, adjustment.position, () => loadAdminMember(deps, memberId));
        ctx.body = { adjustment: { id: adjustment.adjustmentId, amount: input.amount / 100, reason: input.reason, balanceAfter: adjustment.balanceCentavos / 100 }, user };
      },
    ),
  );

  /** An admin uploads one of the member's identity documents (spec §6) and it becomes that document at once. */
  router.post(
    '/:id/documents/:kind',
    endpoint(
      {
        summary: "Upload one of a member's identity documents (idFront, idBack or selfie)",
        upload: { field: 'file', mediaTypes: ['image/jpeg', 'image/png', 'image/webp'] },
        status: 201,
        answer: answers.adminMemberAnswer,
        refusals: ['422 IMAGE_TOO_LARGE'],
      },
      async (ctx) => {
        const memberId = memberIdOf(ctx);
        const kind = documentKindSchema.safeParse(pathParam(ctx, 'kind'));
        if (!kind.success) throw new ApiError(404, 'NOT_FOUND', 'Documents are idFront, idBack or selfie');
        if (!(await readModels.member(memberId))) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Member not found');
        const position = await uploadDocument(deps, ctx, callerOf(ctx).id, memberId, kind.data, await receiveUpload(ctx.req));
        ctx.status = 201;
        ctx.body = await readAfterWrite(ctx, progress, position, () => loadAdminMember(deps, memberId));
      },
    ),
  );

  return router;
}

/**
 * Spec §7: the admin panel creates members with POST /api/auth/register. With a staff token the
 * request is an admin action (allow-list, actor recorded, no member token answered); without
 * one it goes on to the ordinary self-registration.
 */
export function adminRegistrationRoute(deps: ApiDeps): Router {
  const router = new Router();
  const access = adminAccess(deps);
  const create = createMember(deps);
  const staffRegistration = async (ctx: Context, next: Next): Promise<unknown> => {
    const token = /^Bearer (\S+)$/.exec(ctx.get('Authorization'))?.[1];
    const claims = token ? deps.tokens.verify(token) : null;
    if (!claims || !(STAFF_ROLES as readonly string[]).includes(claims.role)) return next();
    await access(ctx, () => create(ctx, next));
  };
  // The route's documentation is the member creation's, whose endpoint parses the body when staff call.
  router.post('/api/auth/register', Object.assign(staffRegistration, { endpoint: create.endpoint }));
  return router;
}

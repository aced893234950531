import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import Router from '@koa/router';
import type { Context } from 'koa';
import { streams, toAdminAccountEntry, type AdminDoc } from '@honeylend/contracts';
import { hashPassword } from '../../platform/passwords/passwords.js';
import { assertNotCommonPassword } from '../../platform/passwords/commonPasswords.js';
import { readAfterWrite } from '../../platform/consistency/readAfterWrite.js';
import { handleCommand, loadState } from '../../platform/commands/commandHandler.js';
import { ApiError } from '../../platform/errors/apiError.js';
import { callerOf, metadataOf, type ApiDeps } from '../../platform/context/context.js';
import { adminAccess, mainAdminOnly } from '../access/adminAccess.js';
import { adminAccountDecider, loginNamesOf, type AdminAccountChanges } from '../adminAccount.js';
import { documentsOf } from '../../platform/lists/searchPage.js';
import { ADMIN_ACCOUNT_MESSAGES, createAdminBody, updateAdminBody } from './adminAccountBodies.js';
import { releaseLoginNames, reserveLoginNames, type LoginName } from './loginNames.js';
import { idFromPath } from '../../platform/http/pathId.js';
import { endpoint } from '../../platform/http/endpoint.js';
import * as answers from '../../platform/http/answerSchemas.js';

const MANAGE = 'add, edit or delete admin accounts';

/** ?search=: any text narrows the list (name, email, phone or sign-in name). */
export const adminAccountsQuery = z.object({
  search: z
    .string({ error: 'Search for one text' })
    .max(200, 'Search for at most 200 characters')
    .optional()
    .transform((value) => value ?? ''),
});

const adminIdOf = (ctx: Context) => idFromPath(ctx, { code: 'ADMIN_NOT_FOUND', message: 'Admin account not found' });

/**
 * Admin accounts (spec §2 settings, §6). Every admin sees the list — the main admin labelled
 * 'Main Admin', and actions only for the main admin; adding, editing and deleting are the main
 * admin's alone, auditors included (issue 16). The main admin can be neither deleted nor demoted,
 * and no account changes role.
 */
export function adminAccountRoutes(deps: ApiDeps): Router {
  const { store, readModels, progress, redis } = deps;
  const router = new Router({ prefix: '/api/admin' });
  router.use(adminAccess(deps));

  const entryOf = async (adminId: string, viewer: { id: string; role: AdminDoc['role'] }) => {
    const doc = await readModels.admin(adminId);
    if (!doc) throw new ApiError(404, 'ADMIN_NOT_FOUND', 'Admin account not found');
    return toAdminAccountEntry(doc, viewer);
  };

  router.get(
    '/all-users',
    endpoint({ summary: 'Admin accounts (`search` narrows the list)', query: adminAccountsQuery, answer: z.array(answers.adminAccountEntry) }, async (ctx, { query }) => {
      const caller = callerOf(ctx);
      const viewer = { id: caller.id, role: caller.role as AdminDoc['role'] };
      const ids = await redis.zrange(readModels.keys.admins, 0, -1);
      const search = query.search.trim().toLowerCase();
      const admins = (await documentsOf<AdminDoc>(redis, ids, readModels.keys.admin)).filter(
        (doc) => !search || [doc.username, doc.fullName, doc.email ?? '', doc.phone ?? ''].some((field) => field.toLowerCase().includes(search)),
      );
      ctx.body = admins.map((doc) => toAdminAccountEntry(doc, viewer));
    }),
  );

  router.post(
    '/create-admin',
    mainAdminOnly(MANAGE),
    endpoint(
      {
        summary: 'Add an admin or auditor account (main admin only)',
        body: createAdminBody,
        status: 201,
        answer: answers.adminAccountEntry,
        refusals: ['409 ALREADY_REGISTERED', '409 USERNAME_TAKEN', '400 PASSWORD_TOO_COMMON'],
      },
      async (ctx, { body: input }) => {
        const caller = callerOf(ctx);
        const metadata = metadataOf(ctx, caller.id);
        const now = deps.now();
        const adminId = randomUUID();
        await assertNotCommonPassword(input.password);
        const passwordHash = await hashPassword(input.password);
        const names: LoginName[] = [{ name: input.email, field: 'email' }, ...(input.phone ? [{ name: input.phone, field: 'phone' as const }] : [])];
        await reserveLoginNames(store, metadata, adminId, names, now);
        let result;
        try {
          result = await handleCommand(
            store,
            streams.admin(adminId),
            adminAccountDecider,
            {
              type: 'CreateAdminAccount',
              adminId,
              username: input.email,
              fullName: input.fullName ?? input.email,
              email: input.email,
              phone: input.phone ?? null,
              role: input.role ?? 'admin',
              passwordHash,
              createdBy: caller.id,
              now: now.toISOString(),
            },
            metadata,
          );
        } catch (error) {
          await releaseLoginNames(
            store,
            metadata,
            adminId,
            names.map((entry) => entry.name),
            now,
          );
          throw error;
        }
        ctx.status = 201;
        ctx.body = await readAfterWrite(ctx, progress, result.position, () => entryOf(adminId, { id: caller.id, role: 'superadmin' }));
      },
    ),
  );

  /**
   * New sign-in names are reserved before the account changes and the old ones freed after, so
   * there is never a moment the admin cannot sign in, nor two accounts sharing a name. A new
   * password ends the admin's other sessions; the main admin changing their own gets a fresh token.
   */
  router.patch(
    '/users/:id',
    mainAdminOnly(MANAGE),
    endpoint(
      {
        summary: 'Edit an admin account (main admin only); a new password ends its sessions',
        body: updateAdminBody,
        answer: answers.editedAdminAccount,
        refusals: ['400 VALIDATION_FAILED', '409 MAIN_ADMIN_PROTECTED', '409 USERNAME_TAKEN', '400 PASSWORD_TOO_COMMON'],
      },
      async (ctx, { body: input }) => {
        const adminId = adminIdOf(ctx);
        const caller = callerOf(ctx);
        const metadata = metadataOf(ctx, caller.id);
        const now = deps.now();
        const { state } = await loadState(store, streams.admin(adminId), adminAccountDecider);
        if (!state.exists) throw new ApiError(404, 'ADMIN_NOT_FOUND', 'Admin account not found');
        if (input.role !== undefined && input.role !== state.role) {
          throw state.role === 'superadmin'
            ? new ApiError(409, 'MAIN_ADMIN_PROTECTED', 'The main admin cannot be demoted.')
            : new ApiError(400, 'VALIDATION_FAILED', ADMIN_ACCOUNT_MESSAGES.roleKept, { fields: { role: ADMIN_ACCOUNT_MESSAGES.roleKept } });
        }
        const changes: AdminAccountChanges = {};
        if (input.fullName !== undefined) changes.fullName = input.fullName;
        if (input.email !== undefined && input.email !== state.email) {
          changes.email = input.email;
          // An admin who signs in with their email keeps doing so with the new one.
          if (state.username === state.email) changes.username = input.email;
        }
        if (input.phone !== undefined && input.phone !== state.phone) changes.phone = input.phone;

        const before = loginNamesOf(state);
        const after = loginNamesOf({ ...state, ...changes });
        const added: LoginName[] = [];
        if (changes.email) added.push({ name: changes.email, field: 'email' });
        if (changes.phone) added.push({ name: changes.phone, field: 'phone' });
        const newNames = added.filter((entry) => !before.includes(entry.name.toLowerCase()));
        await reserveLoginNames(store, metadata, adminId, newNames, now);
        let position: number | null = null;
        try {
          const updated = await handleCommand(store, streams.admin(adminId), adminAccountDecider, { type: 'UpdateAdminAccount', adminId, changes, now: now.toISOString() }, metadata);
          position = updated.position;
        } catch (error) {
          await releaseLoginNames(
            store,
            metadata,
            adminId,
            newNames.map((entry) => entry.name),
            now,
          );
          throw error;
        }
        await releaseLoginNames(
          store,
          metadata,
          adminId,
          before.filter((name) => !after.includes(name)),
          now,
        );

        let token: string | undefined;
        if (input.password !== undefined) {
          await assertNotCommonPassword(input.password);
          const passwordHash = await hashPassword(input.password);
          const changed = await handleCommand(store, streams.admin(adminId), adminAccountDecider, { type: 'ChangeAdminPassword', adminId, passwordHash, now: now.toISOString() }, metadata);
          position = changed.position ?? position;
          await deps.revokeSessions?.(adminId, 'password-changed');
          if (changed.state.exists && adminId === caller.id) token = deps.tokens.sign({ sub: adminId, role: changed.state.role, tv: changed.state.tokenVersion });
        }
        const admin = await readAfterWrite(ctx, progress, position, () => entryOf(adminId, { id: caller.id, role: 'superadmin' }));
        ctx.body = token ? { ...admin, token } : admin;
      },
    ),
  );

  /** Reached from DELETE /api/admin/users/:id when the id is an admin account (members are closed by the members' route). */
  router.delete(
    '/users/:id',
    mainAdminOnly(MANAGE),
    endpoint({ summary: 'Delete an admin account (main admin only)', answer: answers.deleted, refusals: ['404 ADMIN_NOT_FOUND', '409 MAIN_ADMIN_PROTECTED'] }, async (ctx) => {
      const adminId = adminIdOf(ctx);
      const caller = callerOf(ctx);
      const metadata = metadataOf(ctx, caller.id);
      const now = deps.now();
      const result = await handleCommand(store, streams.admin(adminId), adminAccountDecider, { type: 'DeleteAdminAccount', adminId, now: now.toISOString() }, metadata);
      if (result.state.exists || !result.state.deleted) throw new ApiError(404, 'ADMIN_NOT_FOUND', 'Admin account not found');
      await releaseLoginNames(store, metadata, adminId, result.state.loginNames, now);
      await deps.revokeSessions?.(adminId, 'deleted');
      await readAfterWrite(ctx, progress, result.position, async () => undefined);
      ctx.body = { success: true, id: adminId };
    }),
  );

  return router;
}

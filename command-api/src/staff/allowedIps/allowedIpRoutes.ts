import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import { z } from 'zod';
import { streams } from '@honeylend/contracts';
import { readAfterWrite } from '../../platform/consistency/readAfterWrite.js';
import { handleCommand } from '../../platform/commands/commandHandler.js';
import { ApiError } from '../../platform/errors/apiError.js';
import { callerOf, metadataOf, type ApiDeps } from '../../platform/context/context.js';
import { parseAddressRule } from '../../platform/http/addressRules.js';
import { adminAccess, mainAdminOnly } from '../access/adminAccess.js';
import { readAllowedIps } from '../../platform/allowList/allowList.js';
import { allowedIpsDecider } from './allowedIps.js';
import { endpoint } from '../../platform/http/endpoint.js';
import { pathParam } from '../../platform/http/pathId.js';
import * as answers from '../../platform/http/answerSchemas.js';

export const ALLOWED_IP_MESSAGES = {
  required: 'Please enter an IP address',
  invalid: 'Enter an IPv4 or IPv6 address or a CIDR range, e.g. 203.0.113.7 or 203.0.113.0/24',
} as const;

export const allowedIpBody = z.object({
  ipAddress: z
    .string({ error: ALLOWED_IP_MESSAGES.required })
    .trim()
    .min(1, ALLOWED_IP_MESSAGES.required)
    .transform((value, ctx) => {
      const rule = parseAddressRule(value);
      if (rule) return rule.text;
      ctx.addIssue({ code: 'custom', message: ALLOWED_IP_MESSAGES.invalid });
      return z.NEVER;
    }),
  description: z
    .string()
    .trim()
    .max(200, 'Keep the description under 200 characters')
    .nullable()
    .optional()
    .transform((value) => value ?? ''),
});

/** 'IP Access Restrictions' (spec §2 settings, main admin only): the addresses that may reach the management panel. */
export function allowedIpRoutes(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/api/admin/allowed-ips' });
  router.use(adminAccess(deps), mainAdminOnly('manage the allowed IP addresses'));
  const answer = () => readAllowedIps(deps);

  router.get(
    '/',
    endpoint({ summary: 'The addresses that may reach the management panel (main admin only)', answer: z.array(answers.allowedIpAnswer) }, async (ctx) => {
      ctx.body = await answer();
    }),
  );

  /** Refused (409) when the new list would no longer include the address the main admin is calling from. */
  router.post(
    '/',
    endpoint(
      { summary: 'Allow an address or range (never locking out the caller)', body: allowedIpBody, status: 201, answer: answers.allowedIpAnswer, refusals: ['409 ALLOWED_IP_EXISTS', '409'] },
      async (ctx, { body: input }) => {
        const adminId = callerOf(ctx).id;
        const ruleId = randomUUID();
        const result = await handleCommand(
          deps.store,
          streams.allowedIps,
          allowedIpsDecider,
          { type: 'AddAllowedIp', ruleId, ipAddress: input.ipAddress, description: input.description, callerAddress: ctx.ip, now: deps.now().toISOString() },
          metadataOf(ctx, adminId),
        );
        ctx.status = 201;
        const rules = await readAfterWrite(ctx, deps.progress, result.position, answer);
        ctx.body = rules.find((rule) => rule.id === ruleId) ?? { id: ruleId, ipAddress: input.ipAddress, description: input.description };
      },
    ),
  );

  router.delete(
    '/:id',
    endpoint({ summary: 'Remove an allowed address (never locking out the caller)', answer: answers.deleted, refusals: ['404 ALLOWED_IP_NOT_FOUND', '409'] }, async (ctx) => {
      const ruleId = String(pathParam(ctx, 'id') ?? '');
      if (!z.uuid().safeParse(ruleId).success) throw new ApiError(404, 'ALLOWED_IP_NOT_FOUND', 'This address is not on the allow-list.');
      const result = await handleCommand(deps.store, streams.allowedIps, allowedIpsDecider, { type: 'RemoveAllowedIp', ruleId, callerAddress: ctx.ip, now: deps.now().toISOString() }, metadataOf(ctx, callerOf(ctx).id));
      await readAfterWrite(ctx, deps.progress, result.position, async () => undefined);
      ctx.body = { success: true, id: ruleId };
    }),
  );

  return router;
}

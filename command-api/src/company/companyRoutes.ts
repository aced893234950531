import Router from '@koa/router';
import { companyDetailsSchema, streams, type CompanyAnswer, type CompanyDetails } from '@honeylend/contracts';
import { readAfterWrite } from '../platform/consistency/readAfterWrite.js';
import { handleCommand } from '../platform/commands/commandHandler.js';
import { callerOf, metadataOf, type ApiDeps } from '../platform/context/context.js';
import { adminAccess, mainAdminOnly } from '../staff/access/adminAccess.js';
import { companyDecider } from './companyDetails.js';
import { endpoint } from '../platform/http/endpoint.js';
import * as answers from '../platform/http/answerSchemas.js';
import { refineMoneyRequests } from '../platform/text/refuseMoneyRequests.js';

/** The lender's details as the read model holds them; null until the operator set them. */
export async function readCompanyDetails(deps: ApiDeps): Promise<CompanyDetails | null> {
  const raw = await deps.redis.get(deps.readModels.keys.company);
  return raw ? (JSON.parse(raw) as CompanyDetails) : null;
}

/**
 * The details every borrower page shows (its footer, the Disclosure Statement) are staff text too:
 * none may ask the borrower for money (400 MONEY_REQUEST on the field). The contact is a phone
 * number or an email by design; only a payment word beside it makes it a request.
 */
export const companyDetailsBody = companyDetailsSchema.superRefine((details, ctx) =>
  refineMoneyRequests(ctx, { companyName: details.companyName, status: details.status, address: details.address, contact: details.contact }, "The company's details"),
);

/** GET /api/company (public, for every borrower page) and PUT /api/admin/settings/company (main admin). */
export function companyRoutes(deps: ApiDeps): Router[] {
  const publicRouter = new Router({ prefix: '/api/company' });
  publicRouter.get(
    '/',
    endpoint({ summary: "The lender's identity (SEC registration, Certificate of Authority), or {} while not set", public: true, answer: answers.companyAnswer }, async (ctx) => {
      const answer: CompanyAnswer = (await readCompanyDetails(deps)) ?? {};
      ctx.body = answer;
    }),
  );

  const settings = new Router({ prefix: '/api/admin/settings/company' });
  settings.use(adminAccess(deps), mainAdminOnly("set the company's details"));
  settings.put(
    '/',
    endpoint({ summary: "Set the lender's details (main admin only)", body: companyDetailsBody, answer: answers.companyDetailsAnswer }, async (ctx, { body: details }) => {
      const result = await handleCommand(deps.store, streams.company, companyDecider, { type: 'SetCompanyDetails', details, now: deps.now().toISOString() }, metadataOf(ctx, callerOf(ctx).id));
      ctx.body = await readAfterWrite(ctx, deps.progress, result.position, async () => (await readCompanyDetails(deps)) ?? details);
    }),
  );
  return [publicRouter, settings];
}

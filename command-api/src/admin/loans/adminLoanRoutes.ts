import Router from '@koa/router';
import type { Context } from 'koa';
import { adminLoanTermsBody, loanStatusSchema, type LoanDoc } from '@honeylend/contracts';
import { readAfterWrite } from '../../consistency/readAfterWrite.js';
import { ApiError } from '../../http/apiError.js';
import { callerOf, type ApiDeps } from '../../http/context.js';
import { parseBody } from '../../http/parse.js';
import { adminAccess } from '../access/adminAccess.js';
import { listQuery, parseQuery } from '../lists/listQuery.js';
import { documentsOf, searchPage, type ListAnswer } from '../lists/searchPage.js';
import { ADMIN_LOAN_MESSAGES, loanStatusUpdateBody } from './adminLoanBodies.js';
import { adminLoanAnswers, loadAdminLoan } from './adminLoanAnswer.js';
import { changeLoanStatus, changeLoanTerms, deleteLoan } from './loanCommands.js';
import { idFromPath } from '../pathId.js';
import { personalDataView } from '../../audit/personalDataView.js';

export const loansQuery = listQuery(loanStatusSchema, 'Choose a loan status, or all');

const loanIdOf = (ctx: Context) => idFromPath(ctx, { code: 'LOAN_NOT_FOUND', message: 'Loan not found' });

/** The borrowing list (spec §2): search, the status machine with its notifications, terms while pending, deletion. */
export function adminLoanRoutes(deps: ApiDeps): Router {
  const { readModels, redis, progress } = deps;
  const keys = readModels.keys;
  const router = new Router({ prefix: '/api/admin/loans' });
  router.use(adminAccess(deps));

  /** Search covers the member's name, email and phone (any format), the loan number and the status. */
  router.get('/', async (ctx) => {
    const query = parseQuery(ctx, loansQuery);
    const { total, ids } = await searchPage(
      redis,
      { ids: query.status ? keys.loansByStatus(query.status) : keys.loans, text: keys.loanSearch, memberText: keys.memberSearch },
      query.search,
      (query.page - 1) * query.pageSize,
      query.pageSize,
    );
    const loans = await documentsOf<LoanDoc>(redis, ids, keys.loan);
    const answer: ListAnswer<unknown> = { items: await adminLoanAnswers(deps, loans, await personalDataView(ctx, deps)), total, page: query.page, pageSize: query.pageSize };
    ctx.body = answer;
  });

  router.get('/:id', async (ctx) => {
    ctx.body = await loadAdminLoan(deps, loanIdOf(ctx), await personalDataView(ctx, deps));
  });

  /**
   * The amount and term (only while pending, admin limits of spec §5) and then the status, so a
   * whole-row edit that sends both applies both; a value equal to the current one changes nothing.
   */
  router.put('/:id', async (ctx) => {
    const loanId = loanIdOf(ctx);
    const statusUpdate = parseBody(ctx, loanStatusUpdateBody);
    const terms = parseBody(ctx, adminLoanTermsBody);
    if (statusUpdate.status === undefined && terms.amountCentavos === undefined && terms.termMonths === undefined) {
      throw new ApiError(400, 'VALIDATION_FAILED', ADMIN_LOAN_MESSAGES.nothingToChange, { fields: { status: ADMIN_LOAN_MESSAGES.nothingToChange } });
    }
    if (!(await readModels.loan(loanId))) throw new ApiError(404, 'LOAN_NOT_FOUND', 'Loan not found');
    const adminId = callerOf(ctx).id;
    let position: number | null = null;
    if (terms.amountCentavos !== undefined || terms.termMonths !== undefined) position = await changeLoanTerms(deps, ctx, adminId, loanId, terms);
    if (statusUpdate.status !== undefined) position = (await changeLoanStatus(deps, ctx, adminId, loanId, { ...statusUpdate, status: statusUpdate.status })) ?? position;
    ctx.body = await readAfterWrite(ctx, progress, position, () => loadAdminLoan(deps, loanId));
  });

  router.delete('/:id', async (ctx) => {
    const loanId = loanIdOf(ctx);
    const position = await deleteLoan(deps, ctx, callerOf(ctx).id, loanId);
    await readAfterWrite(ctx, progress, position, async () => undefined);
    ctx.body = { success: true, id: loanId };
  });

  return router;
}

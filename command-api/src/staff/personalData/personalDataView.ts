import type { Context } from 'koa';
import { maskAuditEvent, maskLoanDoc, maskMemberDoc, maskWithdrawalDoc, memberOfEvent, type AuditEventAnswer, type LoanDoc, type MemberDoc, type WithdrawalDoc } from '@honeylend/contracts';
import { callerOf, type ApiDeps } from '../../platform/context/context.js';
import { EVERYONE_SHOWN, type SearchVisibility } from '../../platform/lists/searchPage.js';

/**
 * Members' personal data as this caller may see it (issue 16): as stored for admins and the main
 * admin; masked for an auditor, except the members they unmasked (with a reason, an event) in the
 * last UNMASK_MINUTES. Every read route that answers member data passes its documents through it.
 */
export interface PersonalDataView {
  /** Whether anything is masked for this caller. */
  readonly masking: boolean;
  isUnmasked(memberId: string): boolean;
  /** The same, for a search run inside Redis: it matches a masked member only by their masked text. */
  readonly search: SearchVisibility;
  member(doc: MemberDoc): MemberDoc;
  loan(doc: LoanDoc): LoanDoc;
  withdrawal(doc: WithdrawalDoc): WithdrawalDoc;
  event<T extends AuditEventAnswer>(event: T, memberId: string | null): T;
}

const UNMASKED: PersonalDataView = {
  masking: false,
  isUnmasked: () => true,
  search: EVERYONE_SHOWN,
  member: (doc) => doc,
  loan: (doc) => doc,
  withdrawal: (doc) => doc,
  event: (event) => event,
};

/** The members an auditor has unmasked, still within their time. */
export async function unmaskedMembers(deps: ApiDeps, auditorId: string): Promise<Set<string>> {
  const grants = await deps.redis.hgetall(deps.readModels.keys.auditUnmasked(auditorId));
  const now = deps.now().toISOString();
  return new Set(Object.entries(grants).flatMap(([memberId, until]) => (until > now ? [memberId] : [])));
}

/** Members who closed their account (RA 10173 sec. 16(e)): their personal data is masked for every staff member. */
async function closedMembers(deps: ApiDeps): Promise<Set<string>> {
  return new Set(await deps.redis.zrange(deps.readModels.keys.membersByClosure('closed'), 0, -1));
}

/** Staff other than auditors see everything, except the members who closed their account. */
function closedMasked(closed: Set<string>): PersonalDataView {
  if (closed.size === 0) return UNMASKED;
  const shown = (memberId: string | null) => memberId === null || !closed.has(memberId);
  return {
    masking: true,
    isUnmasked: (memberId) => !closed.has(memberId),
    search: { listed: 'masked', memberIds: [...closed] },
    member: (doc) => (shown(doc.id) ? doc : maskMemberDoc(doc)),
    loan: (doc) => (shown(doc.memberId) ? doc : maskLoanDoc(doc)),
    withdrawal: (doc) => (shown(doc.memberId) ? doc : maskWithdrawalDoc(doc)),
    event: (event, memberId) => (shown(memberId) ? event : maskAuditEvent(event)),
  };
}

export async function personalDataView(ctx: Context, deps: ApiDeps): Promise<PersonalDataView> {
  const caller = callerOf(ctx);
  // An auditor's unmasking (a recorded reason, 30 minutes) still reaches a closed member's records on the log: the law keeps them for examination.
  if (caller.role !== 'auditor') return closedMasked(await closedMembers(deps));
  const unmasked = await unmaskedMembers(deps, caller.id);
  const shown = (memberId: string | null) => memberId !== null && unmasked.has(memberId);
  return {
    masking: true,
    isUnmasked: (memberId) => unmasked.has(memberId),
    search: { listed: 'shown', memberIds: [...unmasked] },
    member: (doc) => (shown(doc.id) ? doc : maskMemberDoc(doc)),
    loan: (doc) => (shown(doc.memberId) ? doc : maskLoanDoc(doc)),
    withdrawal: (doc) => (shown(doc.memberId) ? doc : maskWithdrawalDoc(doc)),
    event: (event, memberId) => (shown(memberId) ? event : maskAuditEvent(event)),
  };
}

/**
 * A stream named by a member's personal data (phone-<number>) is found by that data: asked for by
 * name (a stream read, the log's stream filter), an event of a member the viewer sees masked
 * answers as if it were not there, so guessing numbers finds no one.
 */
export function foundByMaskedData(view: PersonalDataView, streamAsked: string | undefined, event: { stream: string; data: Record<string, unknown> }): boolean {
  if (!view.masking || streamAsked === undefined || !streamAsked.startsWith('phone-')) return false;
  const memberId = memberOfEvent(event);
  return memberId === null || !view.isUnmasked(memberId);
}

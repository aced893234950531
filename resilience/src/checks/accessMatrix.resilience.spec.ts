import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIVACY_NOTICE_VERSION, streams } from '@honeylend/contracts';
import { startTestSystem, SUPERADMIN, uniquePhone, type TestSystem } from '../../../cli/src/testing/testSystem.js';
import { registerBorrower, type Borrower } from '../../../cli/src/testing/borrowers.js';
import { acceptDisclosure, adminLogin, borrowerWithPendingLoan, createAdmin, pendingWithdrawal, requestFrom, type TestAdmin } from '../../../cli/src/testing/admins.js';
import { openSocket, socketConnected, socketEnded, socketRefused } from '../../../cli/src/testing/sockets.js';
import { reportFigure } from '../support/figures.js';
import { apiRouteTable, fillPath, routeKey, type MountedRoute } from '../support/routeTable.js';

/**
 * Check 11, the access matrix. Every route the API mounts (read from its routers, so a new route
 * is in the matrix the day it is written, and one the rules below do not know fails the check)
 * × anonymous, borrower A, borrower B, an admin, an auditor and the main admin, with every path parameter
 * filled with something another member owns. A caller who must be refused sends a valid request
 * that would do harm if it got through (approve a loan, promote oneself, reset a password), and
 * must get 401/403 (404 for another member's document), append no event and learn nothing of the
 * other member. A caller who may use the route sends a harmless request (an invalid body, an
 * unknown id, a throwaway target) so the fixtures survive, and must not be refused; a borrower's
 * answer must hold no trace of the other member. Then mass assignment: a borrower setting
 * balance, status, role, creditScore, isAdmin or accountStatus through the profile or at
 * registration is refused or ignored, verified by reading the state back. The auditor (issue 16)
 * reads every staff route and changes nothing (every other method 403), and no answer to them holds
 * the other member's name, phone or account number until they unmask the member, which is an event.
 */

const PASSWORD = 'Sampaguita#2026';
type CallerName = 'anonymous' | 'borrower A' | 'borrower B' | 'admin' | 'auditor' | 'superadmin';
const CALLERS: CallerName[] = ['anonymous', 'borrower A', 'borrower B', 'admin', 'auditor', 'superadmin'];

/**
 * Who a route is for. `registration`: public, except that a staff token makes it a staff write.
 * `ownerOrStaff`: a member's own resource (their document) or any staff member
 * (an auditor only once they unmasked the member). `staff`: admins for everything, auditors for
 * reads. `auditors`: auditors and the main admin; `streamReaders` also admins (the History drawer);
 * `auditorOnly`: unmasking. `signedByProvider`: the payment provider's webhook, for whoever holds
 * its signing secret — none of the callers.
 */
type Access = 'public' | 'registration' | 'signedIn' | 'borrower' | 'ownerOrStaff' | 'staff' | 'mainAdmin' | 'auditors' | 'streamReaders' | 'auditorOnly' | 'signedByProvider';

/** One member's things, as another caller would try to reach them. */
interface MemberFixture extends Borrower {
  fullName: string;
  loanId: string;
  loanNumber: string;
  withdrawalId: string;
  withdrawalNumber: string;
  /** A repayment an admin recorded on the member's loan. */
  repaymentId: string;
  /** A balance adjustment for the member, waiting for a second admin (four eyes). */
  approvalId: string;
  notificationId: string;
  fileIds: string[];
  /** A signed URL of one of the member's identity documents, as their own profile answers it. */
  documentUrl: string;
}

interface Fixtures {
  a: MemberFixture;
  b: MemberFixture;
  officer: TestAdmin;
  auditor: TestAdmin;
  /** Another ordinary admin: the target of account edits a plain admin must not make. */
  colleague: TestAdmin;
  /** Accounts the allowed DELETE cells may really delete. */
  throwawayMembers: Record<'admin' | 'superadmin', string>;
  throwawayAdmin: string;
  mainToken: string;
  customStatus: string;
  allowedIpRuleId: string;
}

interface Cell {
  caller: CallerName;
  victim: MemberFixture;
  fx: Fixtures;
}

interface RouteCase {
  access: Access;
  /** Names the case when one route has several (the same path for members and admin accounts). */
  label?: string;
  /** What a caller who must be refused sends: valid, and harmful if it got through. */
  attack?: (cell: Cell) => unknown;
  /** What a caller who may use the route sends (default `{}` for a body): harmless, so the fixtures survive. */
  allowedBody?: unknown;
  /** Path values for this case instead of the victim's. */
  params?: (cell: Cell) => Record<string, string>;
  /** Path values for the allowed callers only (a throwaway target, an unknown id). */
  allowedParams?: (cell: Cell) => Record<string, string>;
  /** The allowed call ends the session it uses (logout): it gets a session of its own. */
  freshSession?: boolean;
  /** The allowed call ends every session of its account (sign out everywhere): a borrower of its own makes it. */
  ownAccount?: boolean;
}

const unknownId = () => ({ id: randomUUID() });

/**
 * The access rules, one entry per mounted route. A route added to the API without an entry here
 * fails the check until someone decides who may call it.
 */
const RULES: Record<string, RouteCase[]> = {
  'GET /api/health': [{ access: 'public' }],
  'GET /api/ready': [{ access: 'public' }],
  'GET /api/rates': [{ access: 'public' }],
  // The API reference is public: it describes the API's shape, which the web app's code shows
  // anyone already, holds no data, and each route it lists still checks its own callers.
  'GET /api/openapi.json': [{ access: 'public' }],
  'GET /api/docs': [{ access: 'public' }],
  'GET /api/docs/:asset': [{ access: 'public' }],
  'GET /api/company': [{ access: 'public' }],
  'POST /api/auth/login': [{ access: 'public' }],
  'POST /api/auth/register': [{ access: 'registration' }],
  'POST /api/auth/admin-login': [{ access: 'public' }],
  'POST /api/auth/logout': [{ access: 'signedIn', freshSession: true }],
  'POST /api/auth/logout-everywhere': [{ access: 'borrower', ownAccount: true }],
  'POST /api/auth/password-reset/request': [{ access: 'public' }],
  'POST /api/auth/password-reset/confirm': [{ access: 'public' }],
  'POST /api/user/password': [{ access: 'borrower', attack: () => ({ currentPassword: PASSWORD, newPassword: 'Taken#Over2026' }) }],
  'POST /api/user/phone-verification': [{ access: 'borrower' }],
  'POST /api/user/phone-verification/confirm': [{ access: 'borrower', attack: () => ({ code: '123456' }) }],
  'GET /api/dev/outbox': [{ access: 'signedIn' }],
  'GET /api/dev/business-date': [{ access: 'signedIn' }],
  // Moving the date closes days and charges late fees on every loan: the main admin's alone, behind the allow-list.
  'POST /api/dev/business-date': [{ access: 'mainAdmin', attack: () => ({ date: '2099-12-31' }) }],
  'POST /api/payments/webhook': [
    {
      access: 'signedByProvider',
      attack: ({ victim }) => ({ reference: `FORGED-${randomUUID()}`, loanNumber: victim.loanNumber, amount: 5_000, paidAt: new Date().toISOString(), channel: 'gcash' }),
    },
  ],

  'GET /api/user/profile': [{ access: 'borrower' }],
  // Data privacy (RA 10173): the notice is public; consent, the export and the closure are the borrower's own.
  'GET /api/privacy-notice': [{ access: 'public' }],
  'POST /api/user/consent': [{ access: 'borrower', attack: () => ({ noticeVersion: PRIVACY_NOTICE_VERSION }) }],
  'GET /api/user/export': [{ access: 'borrower' }],
  'POST /api/user/closure-request': [{ access: 'borrower', attack: () => ({ reason: 'Close this account for me' }) }],
  'PUT /api/user/profile': [{ access: 'borrower', attack: () => ({ bankAccountNumber: '9999999999' }) }],
  'POST /api/user/bank-account/otp': [{ access: 'borrower', attack: () => ({ bankName: 'BDO', bankAccountNumber: '9999999999' }) }],
  'POST /api/upload': [{ access: 'borrower' }],
  'POST /api/loans': [{ access: 'borrower', attack: () => ({ amount: 80_000, purpose: 'Sari-sari store stock', termMonths: 12 }) }],
  'GET /api/loans/user': [{ access: 'borrower' }],
  // A borrower's own loan only: the other member's answers 404.
  'GET /api/loans/:id': [{ access: 'borrower' }],
  'GET /api/loans/:id/payoff-quote': [{ access: 'borrower' }],
  'GET /api/loans/:id/disclosure': [{ access: 'borrower' }],
  'GET /api/loans/:id/disclosure.pdf': [{ access: 'borrower' }],
  // Accepting another member's loan (the path always names the other one) answers 404.
  'POST /api/loans/:id/acceptance': [{ access: 'borrower', attack: () => ({ hash: 'a'.repeat(64) }) }],
  'POST /api/loans/:id/repayments': [{ access: 'borrower', attack: () => ({ amount: 500 }), allowedBody: { amount: 1 } }],
  // Cancelling another member's application (the path always names the other one) answers 404.
  'POST /api/loans/:id/cancellation': [{ access: 'borrower' }],
  // The rate new loans get: configuration, no one's data.
  'GET /api/loans/terms': [{ access: 'public' }],
  'POST /api/withdrawals/otp': [{ access: 'borrower', attack: () => ({ amount: 1000 }) }],
  'POST /api/withdrawals': [{ access: 'borrower', attack: () => ({ amount: 1000, bankName: 'BPI', bankAccountNumber: '1234567890', otp: '123456', challengeId: randomUUID() }) }],
  'GET /api/withdrawals': [{ access: 'borrower' }],
  'GET /api/notifications': [{ access: 'borrower' }],
  // The path names the other member's notification: not found for the borrower; read-all reads only the caller's own.
  'POST /api/notifications/:id/read': [{ access: 'borrower' }],
  'POST /api/notifications/read-all': [{ access: 'borrower' }],
  'GET /api/files/:fileId': [{ access: 'ownerOrStaff' }],

  'GET /api/admin/users': [{ access: 'staff' }],
  'POST /api/admin/users': [{ access: 'staff', attack: () => ({ phone: uniquePhone(), password: 'Kalamansi#2026', fullName: 'Planted Member' }) }],
  'GET /api/admin/users/:id': [{ access: 'staff' }],
  'PUT /api/admin/users/:id': [{ access: 'staff', attack: () => ({ creditScore: 850 }) }],
  'DELETE /api/admin/users/:id': [
    { access: 'staff', label: 'a member', allowedParams: ({ caller, fx }) => ({ id: fx.throwawayMembers[caller as 'admin' | 'superadmin'] }) },
    { access: 'mainAdmin', label: 'an admin account', params: ({ fx }) => ({ id: fx.colleague.id }), allowedParams: ({ fx }) => ({ id: fx.throwawayAdmin }) },
  ],
  'PATCH /api/admin/users/:id': [
    // The attack is a plain admin promoting themselves; the main admin edits a colleague (with nothing to change).
    { access: 'mainAdmin', attack: () => ({ role: 'superadmin' }), params: ({ fx }) => ({ id: fx.officer.id }), allowedParams: ({ fx }) => ({ id: fx.colleague.id }) },
  ],
  // The attack is the action itself (the member's sessions end, a code is texted); staff who may send a password that is refused (400), which changes nothing.
  'POST /api/admin/users/:id/password-reset': [{ access: 'staff', attack: () => ({}), allowedBody: { password: 'Chosen-By#Staff2026' } }],
  'POST /api/admin/users/:id/balance-adjustments': [{ access: 'staff', attack: () => ({ amount: 100_000, reason: 'Let me through' }) }],
  'POST /api/admin/users/:id/documents/:kind': [{ access: 'staff' }],
  'GET /api/admin/all-users': [{ access: 'staff' }],
  'POST /api/admin/create-admin': [{ access: 'mainAdmin', attack: () => ({ email: `planted.${randomUUID()}@honeylend.test`, password: 'Planted-Admin#2026', fullName: 'Planted Admin' }) }],
  'GET /api/admin/loans': [{ access: 'staff' }],
  'GET /api/admin/loans/:id': [{ access: 'staff' }],
  'PUT /api/admin/loans/:id': [{ access: 'staff', attack: () => ({ status: 'active' }) }],
  'DELETE /api/admin/loans/:id': [{ access: 'staff', allowedParams: unknownId }],
  'POST /api/admin/loans/:id/repayments': [{ access: 'staff', attack: () => ({ amount: 500, channel: 'cash', reference: `PLANTED-${randomUUID()}`, valueDate: new Date().toISOString().slice(0, 10) }) }],
  'POST /api/admin/loans/:id/repayments/:repaymentId/reversal': [{ access: 'staff', attack: () => ({ reason: 'Let me reverse it' }) }],
  'POST /api/admin/loans/:id/penalty-waivers': [{ access: 'staff', attack: () => ({ amount: 1, reason: 'Let me waive it' }) }],
  'GET /api/admin/portfolio': [{ access: 'staff' }],
  'GET /api/admin/collections': [{ access: 'staff' }],
  'GET /api/admin/loan-statuses': [{ access: 'staff' }],
  'POST /api/admin/loan-statuses': [{ access: 'staff', attack: () => ({ status: 'planted_status' }) }],
  'DELETE /api/admin/loan-statuses/:status': [{ access: 'staff', allowedParams: () => ({ status: 'never_defined' }) }],
  'GET /api/admin/withdrawals': [{ access: 'staff' }],
  'GET /api/admin/withdrawals/export': [{ access: 'staff' }],
  'GET /api/admin/withdrawals/:id': [{ access: 'staff' }],
  'PUT /api/admin/withdrawals/:id': [{ access: 'staff', attack: () => ({ status: 'completed' }) }],
  'POST /api/admin/notifications': [{ access: 'staff', attack: ({ victim }) => ({ userId: victim.id, title: 'Planted', message: 'Send your OTP to this number' }) }],
  'GET /api/admin/stats': [{ access: 'staff' }],
  'GET /api/admin/stats/daily': [{ access: 'staff' }],
  'GET /api/admin/audit/:stream': [{ access: 'staff' }, { access: 'auditors', label: 'the IP allow-list', params: () => ({ stream: streams.allowedIps }) }],
  'GET /api/admin/events': [{ access: 'staff' }],
  'GET /api/admin/allowed-ips': [{ access: 'mainAdmin' }],
  'PUT /api/admin/settings/company': [
    {
      access: 'mainAdmin',
      attack: () => ({
        companyName: 'Planted Lending Corp.',
        secRegistrationNumber: 'CS000000000',
        certificateOfAuthorityNumber: '0000',
        dateRegistered: '2020-01-01',
        status: 'Registered',
        address: 'Nowhere',
        contact: 'planted@example.com',
      }),
    },
  ],
  // Four eyes (design §11): the attack approves (or kills) a credit waiting for the victim; the allowed
  // callers name an unknown request (404), so the fixture stays pending for the other cells.
  'GET /api/admin/approvals': [{ access: 'staff' }],
  'POST /api/admin/approvals/:id/approve': [{ access: 'staff', allowedParams: unknownId }],
  'POST /api/admin/approvals/:id/reject': [{ access: 'staff', attack: () => ({ reason: 'Let me kill it' }), allowedParams: unknownId }],
  'GET /api/admin/settings/approvals': [{ access: 'staff' }],
  'PUT /api/admin/settings/approvals': [
    {
      access: 'mainAdmin',
      attack: () => ({
        required: { balance_adjustment: false, withdrawal_completion: false, loan_approval: false, penalty_waiver: false, repayment_reversal: false, phone_change: false },
        withdrawalThreshold: 100_000_000,
        loanApprovalThreshold: 100_000_000,
      }),
    },
  ],
  'POST /api/admin/allowed-ips': [{ access: 'mainAdmin', attack: () => ({ ipAddress: '0.0.0.0/0', description: 'Everyone' }) }],
  'DELETE /api/admin/allowed-ips/:id': [{ access: 'mainAdmin', allowedParams: unknownId }],

  'GET /api/audit/events': [{ access: 'auditors' }],
  // The IP allow-list is the main admin's and the auditors' to read, on every route (a plain admin's global log leaves its events out).
  'GET /api/audit/streams/:stream': [{ access: 'streamReaders' }, { access: 'auditors', label: 'the IP allow-list', params: () => ({ stream: streams.allowedIps }) }],
  'GET /api/audit/book': [{ access: 'auditors' }],
  'GET /api/audit/export': [{ access: 'auditors' }],
  'GET /api/audit/checkpoints': [{ access: 'auditors' }],
  'POST /api/audit/verify': [{ access: 'auditors' }],
  'GET /api/audit/verify/:jobId': [{ access: 'auditors' }],
  'GET /api/audit/verifications/latest': [{ access: 'auditors' }],
  // The allowed call names nobody (404): unmasking the victim here would unmask them for the cells after it.
  'POST /api/audit/unmask': [{ access: 'auditorOnly', attack: ({ victim }) => ({ memberId: victim.id, reason: 'Curious about this member' }), allowedBody: { memberId: randomUUID(), reason: 'Sampling for the audit' } }],
};

/** The statuses a refused caller must get, or null when the caller may use the route. */
function refusal(access: Access, caller: CallerName, method: string): number[] | null {
  if (access === 'public') return null;
  // Anyone registers; with a staff token it is a staff action (an admin creating a member), which an auditor may not take.
  if (access === 'registration') return caller === 'auditor' ? [403] : null;
  if (caller === 'anonymous' || access === 'signedByProvider') return [401];
  const borrower = caller === 'borrower A' || caller === 'borrower B';
  switch (access) {
    case 'signedIn':
      return null;
    case 'borrower':
      return borrower ? null : [403];
    // The path always names the other member's document: hidden or refused, never served (an auditor has not unmasked them).
    case 'ownerOrStaff':
      return borrower ? [403, 404] : caller === 'auditor' ? [403] : null;
    case 'staff':
      return borrower || (caller === 'auditor' && method !== 'GET') ? [403] : null;
    case 'mainAdmin':
      return caller === 'superadmin' ? null : [403];
    case 'auditors':
      return caller === 'auditor' || caller === 'superadmin' ? null : [403];
    case 'streamReaders':
      return borrower ? [403] : null;
    case 'auditorOnly':
      return caller === 'auditor' ? null : [403];
  }
}

/** A path parameter filled with what the victim owns, chosen by the path segment before it. */
function victimParam(path: string, name: string, { victim, fx }: Cell): string {
  const segments = path.split('/');
  const before = segments[segments.indexOf(`:${name}`) - 1];
  switch (before) {
    case 'users':
      return victim.id;
    case 'loans':
      return victim.loanId;
    case 'repayments':
      return victim.repaymentId;
    case 'notifications':
      return victim.notificationId;
    case 'withdrawals':
      return victim.withdrawalId;
    case 'files':
      return victim.fileIds[0];
    case 'audit':
    case 'streams':
      return streams.member(victim.id);
    case 'verify':
      return `verify-${randomUUID()}`;
    case 'documents':
      return 'selfie';
    case 'loan-statuses':
      return fx.customStatus;
    case 'allowed-ips':
      return fx.allowedIpRuleId;
    case 'approvals':
      return victim.approvalId;
    // The reference page's own script: nobody's.
    case 'docs':
      return 'reference.js';
    default:
      throw new Error(`the access matrix does not know what to put in :${name} of ${path}`);
  }
}

/** The victim's personal data: an auditor must not read it until they unmask the victim. */
function personalTraces(victim: MemberFixture): string[] {
  return [victim.fullName, victim.phone, BANK_ACCOUNT];
}
/** The account number every fixture member has on their profile and withdrawals. */
const BANK_ACCOUNT = '1234567890';

/** What of the victim must never appear in an answer to another member (or to nobody). */
function traces(victim: MemberFixture): string[] {
  return [victim.id, victim.phone, victim.fullName, victim.loanId, victim.loanNumber, victim.withdrawalId, victim.withdrawalNumber, victim.repaymentId, victim.approvalId, victim.notificationId, ...victim.fileIds];
}

/** An OTP as the SMS carries it: staff must never read one (design §7). */
const OTP_TEXT = /(withdrawal|bank change) code is \d{6}/i;

let system: TestSystem;
let fx: Fixtures;

async function memberFixture(fullName: string, officer: TestAdmin): Promise<MemberFixture> {
  const { borrower, loan } = await borrowerWithPendingLoan(system, fullName);
  const approval = await system.request('PUT', `/api/admin/loans/${loan.id}`, { token: officer.token, body: { status: 'approved' } });
  if (approval.status !== 200) throw new Error(`approval failed: ${approval.status} ${JSON.stringify(approval.body)}`);
  await acceptDisclosure(system, borrower.token, loan.id);
  const withdrawal = await pendingWithdrawal(system, borrower, 1000);
  const repayment = await system.request('POST', `/api/admin/loans/${loan.id}/repayments`, {
    token: officer.token,
    body: { amount: 100, channel: 'bank', reference: `MATRIX-${loan.id}`, valueDate: (await system.request('GET', '/api/dev/business-date', { token: officer.token })).body.date },
  });
  if (repayment.status !== 201) throw new Error(`repayment failed: ${repayment.status} ${JSON.stringify(repayment.body)}`);
  const notice = await system.request('POST', '/api/admin/notifications', { token: officer.token, body: { userId: borrower.id, title: 'Hello', message: `For ${fullName}` } });
  if (notice.status !== 201) throw new Error(`notification failed: ${notice.status} ${JSON.stringify(notice.body)}`);
  const waiting = await system.request('POST', `/api/admin/users/${borrower.id}/balance-adjustments`, { token: officer.token, body: { amount: 100, reason: 'Waiting for a second admin' } });
  if (waiting.status !== 202) throw new Error(`adjustment request failed: ${waiting.status} ${JSON.stringify(waiting.body)}`);
  const profile = (await system.request('GET', '/api/user/profile', { token: borrower.token })).body;
  const urls: string[] = [profile.idFrontUrl, profile.idBackUrl, profile.selfieUrl];
  const fileIds = urls.map((url) => /\/api\/files\/([0-9a-f-]{36})/.exec(url)![1]);
  return {
    ...borrower,
    fullName,
    loanId: loan.id,
    loanNumber: loan.loanNumber,
    withdrawalId: withdrawal.id,
    withdrawalNumber: withdrawal.withdrawalNumber,
    repaymentId: repayment.body.id,
    approvalId: waiting.body.approvalId,
    notificationId: notice.body.id,
    fileIds,
    documentUrl: urls[0],
  };
}

beforeAll(async () => {
  system = await startTestSystem();
  const main = await system.request('POST', '/api/auth/admin-login', { body: SUPERADMIN });
  const mainToken: string = main.body.token;
  const officer = await createAdmin(system, mainToken);
  const auditor = await createAdmin(system, mainToken, 'auditor');
  const colleague = await createAdmin(system, mainToken);
  const throwawayAdmin = await createAdmin(system, mainToken);
  const tag = randomUUID().slice(0, 6);
  const a = await memberFixture(`Alpha ${tag} Reyes`, officer);
  const b = await memberFixture(`Bravo ${tag} Cruz`, officer);
  const throwawayMembers = { admin: (await registerBorrower(system, 'Throwaway One')).id, superadmin: (await registerBorrower(system, 'Throwaway Two')).id };
  const customStatus = 'matrix_review';
  const status = await system.request('POST', '/api/admin/loan-statuses', { token: officer.token, body: { status: customStatus } });
  if (status.status !== 201) throw new Error(`custom status failed: ${status.status} ${JSON.stringify(status.body)}`);
  // A real allow-list entry (covering this test's loopback address) for the DELETE cells to aim at.
  const rule = await system.request('POST', '/api/admin/allowed-ips', { token: mainToken, body: { ipAddress: '127.0.0.0/8', description: 'Access matrix' } });
  if (rule.status !== 201) throw new Error(`allow-list entry failed: ${rule.status} ${JSON.stringify(rule.body)}`);
  fx = { a, b, officer, auditor, colleague, throwawayMembers, throwawayAdmin: throwawayAdmin.id, mainToken, customStatus, allowedIpRuleId: rule.body.id };
});
afterAll(() => system?.stop());

function tokenOf(caller: CallerName): string | undefined {
  return { anonymous: undefined, 'borrower A': fx.a.token, 'borrower B': fx.b.token, admin: fx.officer.token, auditor: fx.auditor.token, superadmin: fx.mainToken }[caller];
}

/** A new session for the caller, for the one call that ends its session. */
async function freshToken(caller: CallerName): Promise<string | undefined> {
  if (caller === 'anonymous') return undefined;
  if (caller === 'admin') return adminLogin(system, fx.officer.email, fx.officer.password);
  if (caller === 'auditor') return adminLogin(system, fx.auditor.email, fx.auditor.password);
  if (caller === 'superadmin') return adminLogin(system, SUPERADMIN.username, SUPERADMIN.password);
  const member = caller === 'borrower A' ? fx.a : fx.b;
  return (await system.request('POST', '/api/auth/login', { body: { phone: member.phone, password: PASSWORD } })).body.token;
}

interface CellResult {
  name: string;
  requestId: string;
  refusedExpected: boolean;
  problem: string | null;
}

async function runCell(route: MountedRoute, rule: RouteCase, caller: CallerName): Promise<CellResult> {
  const victim = caller === 'borrower B' ? fx.a : fx.b;
  const cell: Cell = { caller, victim, fx };
  const refused = refusal(rule.access, caller, route.method);
  const name = `${routeKey(route)}${rule.label ? ` (${rule.label})` : ''} as ${caller}`;
  const params = {
    ...Object.fromEntries(route.paramNames.map((param) => [param, victimParam(route.path, param, cell)])),
    ...rule.params?.(cell),
    ...(refused ? {} : rule.allowedParams?.(cell)),
  };
  const borrowerCaller = caller === 'borrower A' || caller === 'borrower B';
  // A borrower also tries to name the other member in the query string of any read.
  const query = route.method === 'GET' && borrowerCaller ? `?${new URLSearchParams({ memberId: victim.id, userId: victim.id }).toString()}` : '';
  const path = fillPath(route.path, params) + query;
  const hasBody = !['GET', 'DELETE'].includes(route.method);
  const body = hasBody ? (refused ? (rule.attack?.(cell) ?? {}) : (rule.allowedBody ?? {})) : undefined;
  const token = !refused && rule.ownAccount && borrowerCaller ? (await registerBorrower(system, 'Own Account')).token : !refused && rule.freshSession ? await freshToken(caller) : tokenOf(caller);
  const requestId = `matrix-${randomUUID()}`;
  const res = await system.request(route.method, path, { token, body, headers: { 'X-Request-Id': requestId } });
  const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body ?? '');

  const problems: string[] = [];
  if (refused) {
    if (!refused.includes(res.status)) problems.push(`answered ${res.status}, expected ${refused.join(' or ')}`);
    if (typeof res.body?.message !== 'string' || typeof res.body?.code !== 'string') problems.push(`the refusal is not { message, code }: ${text.slice(0, 200)}`);
  } else {
    if (res.status === 401 || res.status === 403) problems.push(`refused a caller the route is for: ${res.status} ${text.slice(0, 200)}`);
    if (res.status >= 500) problems.push(`answered ${res.status}`);
  }
  if (caller === 'anonymous' || borrowerCaller) {
    // The victim's ids the caller put in the path may be echoed back; anything else of theirs is a leak.
    const named = new Set(Object.values(params));
    const leaked = traces(victim).filter((trace) => !named.has(trace) && text.includes(trace));
    if (leaked.length > 0) problems.push(`the answer holds the other member's ${leaked.join(', ')}`);
  } else if (OTP_TEXT.test(text)) {
    problems.push("staff read a member's one-time code");
  } else if (caller === 'auditor') {
    const unmasked = personalTraces(victim).filter((trace) => text.includes(trace));
    if (unmasked.length > 0) problems.push(`the auditor read the member's ${unmasked.join(', ')} without unmasking them`);
  }
  return { name, requestId, refusedExpected: refused !== null, problem: problems.length ? `${name}: ${problems.join('; ')}` : null };
}

/** The fields a borrower must not set on themselves, with a value that differs from what they have. */
function escalations(current: Record<string, unknown>): Record<string, unknown> {
  const otherStatus = current.status === 'active' ? 'pending' : 'active';
  return {
    balance: 1_000_000,
    status: otherStatus,
    role: 'superadmin',
    creditScore: current.creditScore === 850 ? 300 : 850,
    isAdmin: true,
    accountStatus: otherStatus,
  };
}
const GUARDED = ['balance', 'status', 'role', 'creditScore', 'isAdmin', 'accountStatus', 'creditTier'] as const;
const guardedOf = (user: Record<string, unknown>) => Object.fromEntries(GUARDED.map((field) => [field, user[field]]));

const ANSWER_WITHIN_MS = 15_000;
/** The answer, or null when none came in time (a refusal is immediate: waiting longer only hides a hang). */
function answerWithin<T>(answer: Promise<T>): Promise<T | null> {
  return Promise.race([answer, new Promise<null>((resolve) => setTimeout(() => resolve(null), ANSWER_WITHIN_MS).unref())]);
}

/** Whether a borrower token can reach an admin route (it must not). */
async function reachesAdmin(token: string): Promise<boolean> {
  return (await system.request('GET', '/api/admin/users', { token })).status !== 403;
}

describe('access matrix (check 11)', () => {
  it("refuses every route to whoever it is not for, and never serves one member another member's things (figure: cells passing / total)", async () => {
    const routes = apiRouteTable(system.api.deps);
    const mounted = new Set(routes.map(routeKey));
    const unknownRoutes = [...mounted].filter((key) => !(key in RULES));
    const staleRules = Object.keys(RULES).filter((key) => !mounted.has(key));
    const startPosition = await system.store.headPosition();

    const results: CellResult[] = [];
    for (const route of routes) {
      for (const rule of RULES[routeKey(route)] ?? []) {
        for (const caller of CALLERS) results.push(await runCell(route, rule, caller));
      }
    }

    // A refused request must have changed nothing: no event in the log carries its request id.
    const refusedIds = new Map(results.filter((r) => r.refusedExpected).map((r) => [r.requestId, r]));
    const allowedIds = new Set(results.filter((r) => !r.refusedExpected).map((r) => r.requestId));
    let allowedCellsThatAppended = 0;
    for (const event of await system.store.readAll({ from: startPosition, limit: 100_000 })) {
      for (const id of [event.metadata.correlationId, event.metadata.causationId]) {
        const cell = id ? refusedIds.get(id) : undefined;
        if (cell && !cell.problem) cell.problem = `${cell.name}: refused, yet appended ${event.type}`;
      }
      if (event.metadata.correlationId && allowedIds.has(event.metadata.correlationId)) allowedCellsThatAppended++;
    }
    // The request ids do reach the log (the allowed DELETEs close throwaway accounts), so the check above can see a leak.
    expect(allowedCellsThatAppended).toBeGreaterThan(0);

    // Mass assignment: a borrower setting what only staff or the system may set, on their profile…
    const a = fx.a;
    const before = (await system.request('GET', '/api/user/profile', { token: a.token })).body;
    const adminView = async () => guardedOf((await system.request('GET', `/api/admin/users/${a.id}`, { token: fx.officer.token })).body);
    const adminBefore = await adminView();
    expect(adminBefore).toMatchObject({ balance: expect.any(Number), status: expect.any(String), creditScore: expect.any(Number) });
    for (const [field, value] of Object.entries(escalations(before))) {
      const name = `PUT /api/user/profile setting ${field} as borrower A`;
      const res = await system.request('PUT', '/api/user/profile', { token: a.token, body: { [field]: value, referenceName: `Reference ${field}` } });
      const after = (await system.request('GET', '/api/user/profile', { token: a.token })).body;
      const problems: string[] = [];
      if (res.status !== 200 && res.status !== 400) problems.push(`answered ${res.status}`);
      if (JSON.stringify(guardedOf(after)) !== JSON.stringify(guardedOf(before))) problems.push(`changed ${JSON.stringify(guardedOf(after))}`);
      if (JSON.stringify(await adminView()) !== JSON.stringify(adminBefore)) problems.push('changed what the admins see');
      if (await reachesAdmin(a.token)) problems.push('the borrower now reaches an admin route');
      results.push({ name, requestId: '', refusedExpected: true, problem: problems.length ? `${name}: ${problems.join('; ')}` : null });
    }

    // …and at registration, against what a plain registration gets.
    const register = (extra: Record<string, unknown>) => system.request('POST', '/api/auth/register', { body: { phone: uniquePhone(), password: PASSWORD, fullName: 'Mass Assignment', ...extra } });
    const control = await register({});
    expect(control.status).toBe(201);
    const defaults = guardedOf(control.body.user);
    for (const [field, value] of Object.entries(escalations(control.body.user))) {
      const name = `POST /api/auth/register setting ${field}`;
      const res = await register({ [field]: value });
      const problems: string[] = [];
      if (res.status === 201) {
        const profile = (await system.request('GET', '/api/user/profile', { token: res.body.token })).body;
        const stored = guardedOf((await system.request('GET', `/api/admin/users/${res.body.user.id}`, { token: fx.officer.token })).body);
        const storedDefaults = guardedOf((await system.request('GET', `/api/admin/users/${control.body.user.id}`, { token: fx.officer.token })).body);
        if (JSON.stringify(guardedOf(profile)) !== JSON.stringify(defaults)) problems.push(`registered with ${JSON.stringify(guardedOf(profile))}`);
        if (JSON.stringify(stored) !== JSON.stringify(storedDefaults)) problems.push(`stored ${JSON.stringify(stored)}`);
        if (await reachesAdmin(res.body.token)) problems.push('the new account reaches an admin route');
      } else if (res.status !== 400) {
        problems.push(`answered ${res.status}`);
      }
      results.push({ name, requestId: '', refusedExpected: true, problem: problems.length ? `${name}: ${problems.join('; ')}` : null });
    }

    // Another member's document named as one's own identity document: refused, nothing changes.
    for (const [caller, member, victim] of [
      ['borrower A', fx.a, fx.b],
      ['borrower B', fx.b, fx.a],
    ] as const) {
      const name = `PUT /api/user/profile with the other member's document as ${caller}`;
      const res = await system.request('PUT', '/api/user/profile', { token: member.token, body: { idFrontUrl: victim.documentUrl } });
      const after = (await system.request('GET', '/api/user/profile', { token: member.token })).body;
      const problems: string[] = [];
      if (![400, 403, 404].includes(res.status)) problems.push(`answered ${res.status}`);
      if (String(after.idFrontUrl).includes(victim.fileIds[0])) problems.push("the document is now on the caller's profile");
      results.push({ name, requestId: '', refusedExpected: true, problem: problems.length ? `${name}: ${problems.join('; ')}` : null });
    }

    // The other member's id in the body of one's own profile update: it edits the caller, or nobody.
    for (const [caller, member, victim] of [
      ['borrower A', fx.a, fx.b],
      ['borrower B', fx.b, fx.a],
    ] as const) {
      const name = `PUT /api/user/profile naming the other member's id in the body as ${caller}`;
      const victimBefore = (await system.request('GET', `/api/admin/users/${victim.id}`, { token: fx.officer.token })).body;
      const res = await system.request('PUT', '/api/user/profile', {
        token: member.token,
        body: { id: victim.id, memberId: victim.id, userId: victim.id, address: `Taken over by ${caller}` },
      });
      const victimAfter = (await system.request('GET', `/api/admin/users/${victim.id}`, { token: fx.officer.token })).body;
      const problems: string[] = [];
      if (typeof victimBefore.address !== 'string' || typeof victimBefore.version !== 'number') problems.push('could not read the other member back');
      if (res.status !== 200 && res.status !== 400) problems.push(`answered ${res.status}`);
      if (victimAfter.address !== victimBefore.address || victimAfter.version !== victimBefore.version) problems.push("the other member's profile changed");
      if (res.status === 200 && res.body.id !== member.id) problems.push(`answered the profile of ${res.body.id}`);
      results.push({ name, requestId: '', refusedExpected: true, problem: problems.length ? `${name}: ${problems.join('; ')}` : null });
    }

    // Nothing unmasked without the event: the auditor sees a member's data only after unmasking them with a reason, on the log.
    {
      const victim = fx.b;
      const name = 'POST /api/audit/unmask, then GET /api/admin/users/:id as auditor';
      const problems: string[] = [];
      const read = async () => JSON.stringify((await system.request('GET', `/api/admin/users/${victim.id}`, { token: fx.auditor.token })).body);
      const before = await read();
      if (personalTraces(victim).some((trace) => before.includes(trace))) problems.push('shown before unmasking');
      const head = await system.store.headPosition();
      const noReason = await system.request('POST', '/api/audit/unmask', { token: fx.auditor.token, body: { memberId: victim.id, reason: '' } });
      if (noReason.status !== 400) problems.push(`unmasking without a reason answered ${noReason.status}`);
      const unmask = await system.request('POST', '/api/audit/unmask', { token: fx.auditor.token, body: { memberId: victim.id, reason: 'Access matrix: unmasking with a reason' } });
      if (unmask.status !== 201) problems.push(`unmasking answered ${unmask.status}`);
      const recorded = (await system.store.readAll({ from: head, limit: 1000 })).filter((event) => event.type === 'AuditorUnmasked' && event.data.memberId === victim.id && event.metadata.actorId === fx.auditor.id);
      if (recorded.length !== 1) problems.push(`${recorded.length} AuditorUnmasked events recorded, expected 1`);
      if (!(await read()).includes(victim.fullName)) problems.push('still masked after unmasking');
      results.push({ name, requestId: '', refusedExpected: false, problem: problems.length ? `${name}: ${problems.join('; ')}` : null });
    }

    const failures = results.filter((r) => r.problem).map((r) => r.problem!);
    reportFigure({ check: '11 access matrix', name: 'cells passing / total', value: `${results.length - failures.length} / ${results.length}`, target: 'all' });
    expect(unknownRoutes, 'mounted routes the access matrix has no rule for').toEqual([]);
    expect(staleRules, 'rules for routes the API no longer mounts').toEqual([]);
    expect(failures).toEqual([]);
    // Every caller is refused somewhere and let through somewhere: the matrix is not trivially all one answer.
    for (const caller of CALLERS.filter((c) => c !== 'anonymous')) expect(results.some((r) => r.name.endsWith(`as ${caller}`) && !r.refusedExpected)).toBe(true);
  });
  it('refuses staff from an address not on the allow-list on every channel: staff routes, sign-in, documents, sockets (figure: staff calls refused / total)', async () => {
    const UNLISTED = '127.0.0.2';
    const staff: [CallerName, string][] = [
      ['admin', fx.officer.token],
      ['auditor', fx.auditor.token],
      ['superadmin', fx.mainToken],
    ];
    // Live staff sockets from the address about to leave the list: the change must end them.
    const live = await Promise.all(staff.map(([, token]) => socketConnected(openSocket(system.baseUrl, { token }, { localAddress: UNLISTED }))));
    const liveEnded = live.map((socket) => socketEnded(socket));
    // The list narrows from 127.0.0.0/8 to the test's own address.
    const narrow = await system.request('POST', '/api/admin/allowed-ips', { token: fx.mainToken, body: { ipAddress: '127.0.0.1', description: 'Access matrix: this test only' } });
    expect(narrow.status).toBe(201);
    const wide = await system.request('DELETE', `/api/admin/allowed-ips/${fx.allowedIpRuleId}`, { token: fx.mainToken });
    expect(wide.status).toBe(200);
    const startPosition = await system.store.headPosition();
    const problems: string[] = [];
    let tried = 0;
    try {
      const ended = await Promise.race([Promise.all(liveEnded), new Promise((resolve) => setTimeout(() => resolve(null), 10_000))]);
      tried += live.length;
      if (ended === null) problems.push(`live staff sockets from ${UNLISTED} still open 10 s after the list changed`);

      const staffAccess = new Set<Access>(['staff', 'mainAdmin', 'auditors', 'streamReaders', 'auditorOnly', 'ownerOrStaff']);
      const requestIds: string[] = [];
      for (const route of apiRouteTable(system.api.deps)) {
        for (const rule of RULES[routeKey(route)] ?? []) {
          if (!staffAccess.has(rule.access)) continue;
          for (const [caller, token] of staff) {
            const cell: Cell = { caller, victim: fx.b, fx };
            const params = { ...Object.fromEntries(route.paramNames.map((param) => [param, victimParam(route.path, param, cell)])), ...rule.params?.(cell) };
            const body = ['GET', 'DELETE'].includes(route.method) ? undefined : (rule.attack?.(cell) ?? {});
            const requestId = `matrix-unlisted-${randomUUID()}`;
            requestIds.push(requestId);
            const res = await answerWithin(requestFrom(system.baseUrl, route.method, fillPath(route.path, params), { token, body, localAddress: UNLISTED, headers: { 'X-Request-Id': requestId } }));
            tried += 1;
            if (!res) problems.push(`${routeKey(route)} as ${caller} from ${UNLISTED}: no answer within ${ANSWER_WITHIN_MS / 1000} s`);
            else if (res.status !== 403 || res.body?.code !== 'IP_NOT_ALLOWED') problems.push(`${routeKey(route)} as ${caller} from ${UNLISTED}: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
          }
        }
      }
      for (const [caller] of staff) {
        const credentials = caller === 'superadmin' ? SUPERADMIN : { username: caller === 'admin' ? fx.officer.email : fx.auditor.email, password: caller === 'admin' ? fx.officer.password : fx.auditor.password };
        const login = await answerWithin(requestFrom(system.baseUrl, 'POST', '/api/auth/admin-login', { body: credentials, localAddress: UNLISTED }));
        tried += 1;
        if (login?.status !== 403 || typeof login.body?.token === 'string') problems.push(`admin-login as ${caller} from ${UNLISTED}: ${login?.status ?? 'no answer'}`);
      }
      for (const [caller, token] of staff) {
        const socket = openSocket(system.baseUrl, { token }, { localAddress: UNLISTED });
        tried += 1;
        try {
          const refusal = await answerWithin(socketRefused(socket));
          if (!refusal) problems.push(`socket as ${caller} from ${UNLISTED}: no answer within ${ANSWER_WITHIN_MS / 1000} s`);
          else if (refusal.data?.code !== 'IP_NOT_ALLOWED') problems.push(`socket as ${caller} from ${UNLISTED} refused, but not by the allow-list: ${refusal.message}`);
        } catch {
          problems.push(`socket as ${caller} from ${UNLISTED} connected`);
        } finally {
          socket.disconnect();
        }
      }
      const requestIdSet = new Set(requestIds);
      for (const event of await system.store.readAll({ from: startPosition, limit: 100_000 })) {
        if (event.metadata.correlationId && requestIdSet.has(event.metadata.correlationId)) problems.push(`a refused staff call appended ${event.type}`);
      }
    } finally {
      const restore = await system.request('POST', '/api/admin/allowed-ips', { token: fx.mainToken, body: { ipAddress: '127.0.0.0/8', description: 'Access matrix' } });
      if (restore.status === 201) fx.allowedIpRuleId = restore.body.id;
      await system.request('DELETE', `/api/admin/allowed-ips/${narrow.body.id}`, { token: fx.mainToken });
      for (const socket of live) socket.disconnect();
    }
    reportFigure({ check: '11 access matrix', name: 'staff calls from an address not on the allow-list refused (routes, sign-in, documents, sockets)', value: `${tried - problems.length} / ${tried}`, target: 'all' });
    expect(problems).toEqual([]);
  });
});

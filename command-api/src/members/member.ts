import { DEFAULT_CREDIT_SCORE, type ClosureObligation, type DocumentKind, type LoanClosing, type EventOf, type MemberStatus, type ProfileChanges, type WithdrawalHoldReason } from '@honeylend/contracts';

export type MemberEvent = EventOf<
  | 'MemberRegistered'
  | 'MemberProfileUpdated'
  | 'DocumentUploaded'
  | 'IdentityDocumentSet'
  | 'LoanApplicationOpened'
  | 'LoanDisbursed'
  | 'WithdrawalOtpRequested'
  | 'WithdrawalRequested'
  | 'WithdrawalCompleted'
  | 'WithdrawalRejected'
  | 'MemberNotified'
  | 'MemberStatusChanged'
  | 'MemberCreditScoreChanged'
  | 'MemberPhoneChanged'
  | 'MemberPasswordReset'
  | 'MemberPasswordResetStarted'
  | 'MemberPasswordChanged'
  | 'MemberSignedOutEverywhere'
  | 'MemberPhoneVerified'
  | 'BalanceAdjusted'
  | 'MemberDeleted'
  | 'LoanApplicationClosed'
  | 'WalletRepaymentDebited'
  | 'WalletRepaymentRefunded'
  | 'WithdrawalsHeld'
  | 'ConsentGiven'
  | 'MemberClosureRequested'
  | 'MemberAccountClosed'
>;

/** New withdrawals are refused until `until` (design §7); the latest-ending hold wins. */
export interface WithdrawalHold {
  until: string;
  reason: WithdrawalHoldReason;
}

/** A change of who controls the account, made by an admin: for a day that admin may not pay the member out. */
export interface AdminIdentityChange {
  adminId: string;
  at: string;
}

/** A wallet repayment as the member's stream knows it: debited, and perhaps given back. */
export interface WalletRepayment {
  loanId: string;
  amountCentavos: number;
  refunded: boolean;
}

export type Profile = Required<{ [K in keyof ProfileChanges]: ProfileChanges[K] | null }>;

export interface HeldWithdrawal {
  amountCentavos: number;
  status: 'pending' | 'completed' | 'rejected';
}

export interface ExistingMember {
  exists: true;
  memberId: string;
  phone: string;
  passwordHash: string;
  status: MemberStatus;
  /** Suspension, deletion, a password reset or change, and signing out everywhere bump it: tokens signed with an older one stop working. */
  tokenVersion: number;
  /** The number the member last proved with a texted code; proved means it is still `phone`. */
  verifiedPhone: string | null;
  creditScore: number;
  profile: Profile;
  /** Available balance: disbursements minus held and completed withdrawals plus refunds. */
  balanceCentavos: number;
  /** Files this member (or an admin for them) uploaded: only these may become their documents. */
  uploadedFileIds: Set<string>;
  documents: Record<DocumentKind, string | null>;
  loanIds: string[];
  /** Loans denied, completed, lapsed, cancelled or deleted, with how each closed: they no longer count as the member's open loan. */
  closedLoanIds: Map<string, LoanClosing>;
  disbursedLoanIds: Set<string>;
  withdrawals: Map<string, HeldWithdrawal>;
  /** OTP challenges already spent on a withdrawal: one code, one withdrawal. */
  usedChallengeIds: Set<string>;
  /** Wallet repayments by repayment id: the same id is debited once, refunded at most once. */
  walletRepayments: Map<string, WalletRepayment>;
  withdrawalHold: WithdrawalHold | null;
  /** Phone changes and password resets made or started by admins (the last few are enough to cover a day). */
  adminIdentityChanges: AdminIdentityChange[];
  /** The bank account each withdrawal code was issued for, by challenge id (kept as fields, so an auditor's view masks the number). */
  challengeDestinations: Map<string, PayoutAccount>;
  /** The privacy notice version the member last consented to (RA 10173 sec. 12). */
  consentVersion: string | null;
  /** Set once the account is closed at the member's request: nothing more is done for it. */
  closedAt: string | null;
  /** Adjustments recorded, by id: an approved adjustment (four eyes) runs once however often its approval is retried. */
  adjustmentIds: Set<string>;
}

export interface PayoutAccount {
  bankName: string;
  bankAccountNumber: string;
}

/** The bank account on the profile, when both its fields are set: the one place withdrawals pay to. */
export function payoutAccount(member: ExistingMember): PayoutAccount | null {
  const { bankName, bankAccountNumber } = member.profile;
  return bankName && bankAccountNumber ? { bankName, bankAccountNumber } : null;
}

/** One account, however its bank's name is capitalised. */
export function sameAccount(a: PayoutAccount, b: PayoutAccount): boolean {
  return a.bankName.trim().toLowerCase() === b.bankName.trim().toLowerCase() && a.bankAccountNumber === b.bankAccountNumber;
}

/** The hold still in force at `now`, if any. */
export function holdAt(member: ExistingMember, now: string): WithdrawalHold | null {
  const hold = member.withdrawalHold;
  return hold && Date.parse(hold.until) > Date.parse(now) ? hold : null;
}

const ADMIN_IDENTITY_CHANGES_KEPT = 20;

/** A closed account: nothing more happens on its stream, but a retried deletion can still finish freeing the phone. */
export interface DeletedMember {
  exists: false;
  deleted: true;
  memberId: string;
  phone: string;
}

export type MemberState = { exists: false; deleted?: undefined } | DeletedMember | ExistingMember;

export const initialMemberState = (): MemberState => ({ exists: false });

export function isPhoneVerified(member: ExistingMember): boolean {
  return member.verifiedPhone === member.phone;
}

/** Loans applied for and not yet denied, completed, lapsed, cancelled or deleted. */
export function openLoanIds(member: ExistingMember): string[] {
  return member.loanIds.filter((loanId) => !member.closedLoanIds.has(loanId));
}

/** How each of the member's applications stands for "may apply again" (contracts' mayApplyAgain): its closing, or 'open'. */
export function applicationStandings(member: ExistingMember): string[] {
  return member.loanIds.map((loanId) => member.closedLoanIds.get(loanId) ?? 'open');
}

/** What keeps the account from being closed: an open loan, a withdrawal pending review, money in the wallet. */
export function closureObligations(member: ExistingMember): ClosureObligation[] {
  return [
    ...openLoanIds(member).map((loanId): ClosureObligation => ({ kind: 'loan', loanId })),
    ...[...member.withdrawals].filter(([, withdrawal]) => withdrawal.status === 'pending').map(([withdrawalId]): ClosureObligation => ({ kind: 'withdrawal', withdrawalId })),
    ...(member.balanceCentavos > 0 ? [{ kind: 'wallet', balanceCentavos: member.balanceCentavos } as const] : []),
  ];
}

export function hasPendingWithdrawal(member: ExistingMember): boolean {
  return [...member.withdrawals.values()].some((withdrawal) => withdrawal.status === 'pending');
}

export function isPersonalInfoComplete(profile: Profile): boolean {
  return Boolean(profile.fullName && profile.address && profile.monthlySalaryCentavos !== null && profile.bankName && profile.bankAccountNumber);
}

export function areDocumentsComplete(documents: Record<DocumentKind, string | null>): boolean {
  return Boolean(documents.idFront && documents.idBack && documents.selfie);
}

function withIdentityChange(state: ExistingMember, adminId: string | undefined, at: string): AdminIdentityChange[] {
  if (!adminId) return state.adminIdentityChanges;
  return [...state.adminIdentityChanges, { adminId, at }].slice(-ADMIN_IDENTITY_CHANGES_KEPT);
}

/** Folding never mutates: each event yields a new state (sets and maps are copied where they change). */
export function evolveMember(state: MemberState, event: MemberEvent): MemberState {
  if (event.type === 'MemberRegistered') {
    return {
      exists: true,
      memberId: event.data.memberId,
      phone: event.data.phone,
      passwordHash: event.data.passwordHash,
      status: 'active',
      tokenVersion: 0,
      verifiedPhone: null,
      creditScore: DEFAULT_CREDIT_SCORE,
      profile: {
        fullName: event.data.fullName,
        email: event.data.email,
        address: null,
        countryOfWork: null,
        monthlySalaryCentavos: null,
        referenceName: null,
        referencePhone: null,
        bankName: null,
        bankAccountNumber: null,
      },
      balanceCentavos: 0,
      uploadedFileIds: new Set(),
      documents: { idFront: null, idBack: null, selfie: null },
      loanIds: [],
      closedLoanIds: new Map(),
      disbursedLoanIds: new Set(),
      withdrawals: new Map(),
      usedChallengeIds: new Set(),
      walletRepayments: new Map(),
      withdrawalHold: null,
      adminIdentityChanges: [],
      challengeDestinations: new Map(),
      consentVersion: null,
      closedAt: null,
      adjustmentIds: new Set(),
    };
  }
  if (!state.exists) return state;
  switch (event.type) {
    case 'MemberProfileUpdated':
      return { ...state, profile: { ...state.profile, ...event.data.changes } };
    case 'DocumentUploaded':
      return { ...state, uploadedFileIds: new Set(state.uploadedFileIds).add(event.data.fileId) };
    case 'IdentityDocumentSet':
      return { ...state, documents: { ...state.documents, [event.data.kind]: event.data.fileId } };
    case 'LoanApplicationOpened':
      return { ...state, loanIds: [...state.loanIds, event.data.loanId] };
    case 'LoanDisbursed':
      return {
        ...state,
        balanceCentavos: state.balanceCentavos + event.data.amountCentavos,
        disbursedLoanIds: new Set(state.disbursedLoanIds).add(event.data.loanId),
      };
    case 'WithdrawalOtpRequested': {
      const { bankName, bankAccountNumber } = event.data;
      if (bankName === undefined || bankAccountNumber === undefined) return state;
      return { ...state, challengeDestinations: new Map(state.challengeDestinations).set(event.data.challengeId, { bankName, bankAccountNumber }) };
    }
    case 'WithdrawalsHeld': {
      const current = state.withdrawalHold;
      if (current && Date.parse(current.until) >= Date.parse(event.data.heldUntil)) return state;
      return { ...state, withdrawalHold: { until: event.data.heldUntil, reason: event.data.reason } };
    }
    case 'MemberNotified':
      return state;
    case 'WithdrawalRequested':
      return {
        ...state,
        balanceCentavos: state.balanceCentavos - event.data.amountCentavos,
        withdrawals: new Map(state.withdrawals).set(event.data.withdrawalId, { amountCentavos: event.data.amountCentavos, status: 'pending' }),
        usedChallengeIds: new Set(state.usedChallengeIds).add(event.data.challengeId),
      };
    case 'WithdrawalCompleted': {
      const held = state.withdrawals.get(event.data.withdrawalId);
      if (!held) return state;
      return { ...state, withdrawals: new Map(state.withdrawals).set(event.data.withdrawalId, { ...held, status: 'completed' }) };
    }
    case 'WithdrawalRejected': {
      const held = state.withdrawals.get(event.data.withdrawalId);
      if (!held) return state;
      return {
        ...state,
        balanceCentavos: state.balanceCentavos + held.amountCentavos,
        withdrawals: new Map(state.withdrawals).set(event.data.withdrawalId, { ...held, status: 'rejected' }),
      };
    }
    case 'MemberStatusChanged':
      return { ...state, status: event.data.to, tokenVersion: event.data.to === 'suspended' ? state.tokenVersion + 1 : state.tokenVersion };
    case 'MemberCreditScoreChanged':
      return { ...state, creditScore: event.data.to };
    case 'MemberPhoneChanged':
      return { ...state, phone: event.data.to, adminIdentityChanges: withIdentityChange(state, event.data.changedBy, event.data.changedAt) };
    case 'MemberPasswordReset':
      return {
        ...state,
        passwordHash: event.data.passwordHash,
        tokenVersion: state.tokenVersion + 1,
        adminIdentityChanges: withIdentityChange(state, event.data.resetBy, event.data.resetAt),
      };
    case 'MemberPasswordResetStarted':
      return { ...state, tokenVersion: state.tokenVersion + 1, adminIdentityChanges: withIdentityChange(state, event.data.startedBy, event.data.startedAt) };
    case 'MemberPasswordChanged':
      return { ...state, passwordHash: event.data.passwordHash, tokenVersion: state.tokenVersion + 1 };
    case 'MemberSignedOutEverywhere':
      return { ...state, tokenVersion: state.tokenVersion + 1 };
    case 'MemberPhoneVerified':
      return { ...state, verifiedPhone: event.data.phone };
    case 'BalanceAdjusted':
      return { ...state, balanceCentavos: state.balanceCentavos + event.data.amountCentavos, adjustmentIds: new Set(state.adjustmentIds).add(event.data.adjustmentId) };
    case 'WalletRepaymentDebited':
      return {
        ...state,
        balanceCentavos: state.balanceCentavos - event.data.amountCentavos,
        walletRepayments: new Map(state.walletRepayments).set(event.data.repaymentId, { loanId: event.data.loanId, amountCentavos: event.data.amountCentavos, refunded: false }),
      };
    case 'WalletRepaymentRefunded': {
      const debited = state.walletRepayments.get(event.data.repaymentId);
      if (!debited) return state;
      return {
        ...state,
        balanceCentavos: state.balanceCentavos + event.data.amountCentavos,
        walletRepayments: new Map(state.walletRepayments).set(event.data.repaymentId, { ...debited, refunded: true }),
      };
    }
    case 'ConsentGiven':
      return { ...state, consentVersion: event.data.noticeVersion };
    case 'MemberClosureRequested':
      return state;
    case 'MemberAccountClosed':
      // Closed sessions end: every token older than this is refused.
      return { ...state, closedAt: event.data.closedAt, tokenVersion: state.tokenVersion + 1 };
    case 'LoanApplicationClosed':
      return { ...state, closedLoanIds: new Map(state.closedLoanIds).set(event.data.loanId, event.data.closing) };
    case 'MemberDeleted':
      return { exists: false, deleted: true, memberId: state.memberId, phone: state.phone };
  }
}

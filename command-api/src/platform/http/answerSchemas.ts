import { z } from 'zod';
import { APPROVAL_KINDS, APPROVAL_STATUSES } from '@honeylend/contracts';
import type {
  ApprovalAnswer,
  ApprovalKind,
  ApprovalSettingsAnswer,
  AwaitingApprovalAnswer,
  AdminAccountEntry,
  AdminAnswer,
  AdminLoanAnswer,
  AdminMemberAnswer,
  AdminOtpStatus,
  AdminStatsAnswer,
  AdminWithdrawalAnswer,
  AllowedIpAnswer,
  AuditCheckpointsAnswer,
  AuditEventAnswer,
  AuditEventsAnswer,
  AuditLogEvent,
  AuditStreamAnswer,
  BookAnswer,
  BookFigures,
  BusinessDateAnswer,
  CollectionsRowAnswer,
  CompanyAnswer,
  CompanyDetails,
  ClosureAnswer,
  DisclosureAnswer,
  CreditTier,
  LoanAccount,
  UnmaskAnswer,
  VerifyJobAnswer,
  LoanAnswer,
  LoanDetailAnswer,
  NotificationAnswer,
  PayoffQuoteAnswer,
  PortfolioAnswer,
  RepaymentReceiptAnswer,
  UserAnswer,
  WithdrawalAnswer,
} from '@honeylend/contracts';

/**
 * The API's answers as zod schemas, each typed against the contracts' answer interface so the two
 * cannot drift apart silently (a field the interface gains and the schema lacks fails to compile).
 * Objects are strict: a field no interface names (a password hash, a code) fails the check.
 */
const isoTime = z.iso.datetime({ offset: true });
const pesos = z.number().finite();
const count = z.number().int().nonnegative();
const uuid = z.uuid();

const creditTier: z.ZodType<CreditTier> = z.strictObject({
  label: z.enum(['Bad Credit', 'Average Credit', 'Good Credit', 'Perfect Credit', 'Unknown']),
  stars: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(5)]),
});
const memberStatus = z.enum(['active', 'pending', 'suspended']);

const userShape = {
  id: uuid,
  // A closed account's number is masked (RA 10173 sec. 16(e)): its last four digits.
  phone: z.string().regex(/^(\+63\d{10}|••••\d{4})$/),
  fullName: z.string(),
  email: z.string().nullable(),
  address: z.string().nullable(),
  countryOfWork: z.string().nullable(),
  monthlySalary: pesos.nullable(),
  referenceName: z.string().nullable(),
  referencePhone: z.string().nullable(),
  bankName: z.string().nullable(),
  bankAccountNumber: z.string().nullable(),
  idFrontUrl: z.string().nullable(),
  idBackUrl: z.string().nullable(),
  selfieUrl: z.string().nullable(),
  balance: pesos,
  creditScore: z.number().int(),
  creditTier,
  status: memberStatus,
  accountStatus: memberStatus,
  role: z.literal('borrower'),
  isAdmin: z.literal(false),
  personalInfoComplete: z.boolean(),
  documentsComplete: z.boolean(),
  verified: z.boolean(),
  withdrawalHold: z.strictObject({ until: isoTime, reason: z.enum(['bank-account-changed', 'phone-changed', 'too-many-wrong-codes']), message: z.string().min(1) }).nullable(),
  phoneVerified: z.boolean(),
  consentRequired: z.boolean(),
  privacyNoticeVersion: z.string().nullable(),
  createdAt: isoTime,
  version: count,
};
export const userAnswer: z.ZodType<UserAnswer> = z.strictObject(userShape);

/** Forgot password, sign out everywhere: a success and what happened, in words. */
export const accountMessage = z.strictObject({ success: z.literal(true), message: z.string().min(1) });
/** A changed password: this session goes on with a new token. */
export const passwordChanged = z.strictObject({ success: z.literal(true), message: z.string().min(1), token: z.string().min(20) });
/** A code texted to the member's own number. */
export const codeSent = z.strictObject({ sentTo: z.string().regex(/^\+63•+\d{4}$/), expiresAt: isoTime });

const adminOtpStatus: z.ZodType<AdminOtpStatus> = z.strictObject({
  state: z.enum(['sent', 'retrying', 'failed']),
  sentTo: z.string(),
  lastAttemptAt: isoTime,
  lastSentAt: isoTime.nullable(),
  failures: count,
  lastError: z.string().nullable(),
  attemptsLeft: count.nullable(),
  expiresAt: isoTime.nullable(),
});
const closureObligationAnswer = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('loan'), loanId: uuid, message: z.string().min(1) }),
  z.strictObject({ kind: z.literal('withdrawal'), withdrawalId: uuid, message: z.string().min(1) }),
  z.strictObject({ kind: z.literal('wallet'), balance: pesos.positive(), message: z.string().min(1) }),
]);
export const closureAnswer: z.ZodType<ClosureAnswer> = z.strictObject({
  requestedAt: isoTime,
  reason: z.string(),
  outcome: z.enum(['closed', 'refused']),
  closedAt: isoTime.nullable(),
  obligations: z.array(closureObligationAnswer),
});
export const adminMemberAnswer: z.ZodType<AdminMemberAnswer> = z.strictObject({ ...userShape, updatedAt: isoTime, otp: adminOtpStatus.nullable(), closure: closureAnswer.nullable() });

const adminShape = {
  id: uuid,
  username: z.string().min(1),
  fullName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  role: z.enum(['admin', 'superadmin', 'auditor']),
  isAdmin: z.literal(true),
  isMainAdmin: z.boolean(),
  createdAt: isoTime,
};
export const adminAnswer: z.ZodType<AdminAnswer> = z.strictObject(adminShape);
const accountEntryShape = { ...adminShape, label: z.literal('Main Admin').nullable(), canEdit: z.boolean(), canDelete: z.boolean() };
export const adminAccountEntry: z.ZodType<AdminAccountEntry> = z.strictObject(accountEntryShape);
/** PATCH of the main admin's own password answers a fresh token with the entry. */
export const editedAdminAccount = z.strictObject({ ...accountEntryShape, token: z.string().optional() });

const businessDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const nonNegativePesos = pesos.nonnegative();
const bucket = z.enum(['current', '1-30', '31-60', '61-90', '90+']);
const scheduleRow = z.strictObject({
  month: z.number().int().positive(),
  number: z.number().int().positive(),
  dueDate: businessDate,
  amount: pesos,
  principal: pesos,
  interest: pesos,
  penalty: nonNegativePesos,
  paid: nonNegativePesos,
  interestWaived: nonNegativePesos,
  status: z.enum(['upcoming', 'due', 'partially_paid', 'paid', 'overdue']),
  daysPastDue: count,
});
const owed = z.strictObject({ principal: nonNegativePesos, interest: nonNegativePesos, penalties: nonNegativePesos, total: nonNegativePesos });
const allocationLine = z.strictObject({ instalment: z.number().int().positive(), penalty: nonNegativePesos, interest: nonNegativePesos, principal: nonNegativePesos });
const repaymentRow = z.strictObject({
  id: uuid,
  receiptNumber: z.string().regex(/^OR-\d{4}-\d{6,}-\d{3,}$/),
  amount: pesos.positive(),
  channel: z.enum(['wallet', 'gcash', 'maya', 'bank', 'cash']),
  reference: z.string().min(1),
  valueDate: businessDate,
  receivedAt: isoTime,
  reversed: z.boolean(),
  allocation: z.array(allocationLine),
});
const servicingShape = {
  disbursement: z.strictObject({ on: businessDate, done: z.boolean() }),
  outstanding: owed,
  nextDue: z.strictObject({ date: businessDate, amount: nonNegativePesos }).nullable(),
  daysPastDue: count,
  delinquencyBucket: bucket,
  repayments: z.array(repaymentRow),
};
export const repaymentReceipt: z.ZodType<RepaymentReceiptAnswer> = z.strictObject({
  id: uuid,
  receiptNumber: z.string().regex(/^OR-\d{4}-\d{6,}-\d{3,}$/),
  amount: pesos.positive(),
  valueDate: businessDate,
  allocation: z.array(allocationLine),
});
/** The provider's webhook answers the receipt with the loan it paid. */
export const providerReceipt = z.strictObject({
  id: uuid,
  receiptNumber: z.string(),
  amount: pesos.positive(),
  valueDate: businessDate,
  allocation: z.array(allocationLine),
  loanId: uuid,
  loanNumber: z.string(),
});
export const payoffQuote: z.ZodType<PayoffQuoteAnswer> = z.strictObject({
  amount: nonNegativePesos,
  validUntil: isoTime,
  breakdown: z.strictObject({ principal: nonNegativePesos, interest: nonNegativePesos, penalties: nonNegativePesos }),
});
export const portfolio: z.ZodType<PortfolioAnswer> = z.strictObject({
  asOf: businessDate,
  outstandingPrincipal: nonNegativePesos,
  activeLoans: count,
  buckets: z.array(z.strictObject({ bucket, loans: count, outstandingPrincipal: nonNegativePesos })),
  par30: z.number().min(0).max(1),
  portfolioAtRisk30: nonNegativePesos,
  month: z.string().regex(/^\d{4}-\d{2}$/),
  repaidThisMonth: pesos,
});
const collectionsRow: z.ZodType<CollectionsRowAnswer> = z.strictObject({
  id: uuid,
  loanNumber: z.string(),
  memberId: uuid,
  borrower: z.strictObject({ fullName: z.string(), phone: z.string() }).nullable(),
  daysPastDue: z.number().int().positive(),
  delinquencyBucket: bucket,
  overdueAmount: nonNegativePesos,
  overdueInstalments: count,
  outstanding: nonNegativePesos,
  lastContact: z.strictObject({ at: isoTime, channel: z.literal('sms') }).nullable(),
  version: count,
});
export const collections = z.strictObject({ items: z.array(collectionsRow), total: count, page: z.number().int().positive(), pageSize: z.number().int().positive() });
const businessDateShape = { date: businessDate, calendarDate: businessDate, lastDayClose: businessDate.nullable() };
export const businessDateAnswer: z.ZodType<BusinessDateAnswer> = z.strictObject(businessDateShape);
/** POST /api/dev/business-date: the date now in force, and what the day close it ran did. */
export const movedBusinessDate = z.strictObject({
  ...businessDateShape,
  closed: z.strictObject({ loans: count, changed: count, events: count }),
  remindersSent: count,
});
/** GET /api/loans/terms: the configured monthly rate (flat), as basis points and as a percent. */
export const loanTermsAnswer = z.strictObject({ monthlyRateBps: count, monthlyRatePercent: z.number().nonnegative() });
const loanShape = {
  id: uuid,
  loanNumber: z.string().regex(/^LN-\d{4}-\d{6,}$/),
  status: z.string(),
  statusMessage: z.string().nullable(),
  amount: pesos,
  termMonths: z.number().int(),
  interestRate: z.number(),
  monthlyPayment: pesos,
  purpose: z.string(),
  createdAt: isoTime,
  updatedAt: isoTime,
  version: count,
  acceptance: z.strictObject({ awaiting: z.boolean(), acceptBy: isoTime.nullable(), acceptedAt: isoTime.nullable() }),
  ...servicingShape,
  disclosure: z.strictObject({
    financeCharge: pesos,
    totalRepayable: pesos,
    finalPayment: pesos,
    nominalMonthlyRatePercent: z.number(),
    effectiveMonthlyRatePercent: z.number(),
    effectiveAnnualRatePercent: z.number(),
  }),
};
export const loanAnswer: z.ZodType<LoanAnswer> = z.strictObject({ ...loanShape, schedule: z.array(scheduleRow) });
/** The facts of the loan's account, as its own borrower may fold them (their shape is the fold's input, checked by its own tests). */
const loanAccount = z.custom<LoanAccount>((value) => typeof value === 'object' && value !== null && Array.isArray((value as LoanAccount).schedule) && Array.isArray((value as LoanAccount).transactions), 'a loan account');
export const loanDetailAnswer: z.ZodType<LoanDetailAnswer> = z.strictObject({ ...loanShape, schedule: z.array(scheduleRow), account: loanAccount.nullable(), businessDate });
const adminLoanShape = {
  ...loanShape,
  memberId: uuid,
  member: z
    .strictObject({
      id: uuid,
      fullName: z.string(),
      email: z.string().nullable(),
      phone: z.string(),
      balance: pesos,
      creditScore: z.number().int(),
      creditTier,
      status: memberStatus,
      otp: adminOtpStatus.nullable(),
    })
    .nullable(),
};
export const adminLoanRow: z.ZodType<AdminLoanAnswer> = z.strictObject(adminLoanShape);
/** One loan for an admin carries its schedule too. */
export const adminLoanAnswer: z.ZodType<AdminLoanAnswer & { schedule: LoanAnswer['schedule'] }> = z.strictObject({ ...adminLoanShape, schedule: z.array(scheduleRow) });

const withdrawalShape = {
  id: uuid,
  withdrawalNumber: z.string().regex(/^WD-\d{4}-\d{6,}$/),
  amount: pesos,
  bankName: z.string(),
  bankAccountNumber: z.string(),
  status: z.enum(['pending', 'completed', 'rejected']),
  reason: z.string().nullable(),
  createdAt: isoTime,
  processedAt: isoTime.nullable(),
  payoutReference: z.string().nullable(),
  version: count,
};
/** Borrowers see only the last four digits of the account. */
export const withdrawalAnswer: z.ZodType<WithdrawalAnswer> = z.strictObject({ ...withdrawalShape, bankAccountNumber: z.string().regex(/^••••.{0,4}$/) });
export const adminWithdrawalAnswer: z.ZodType<AdminWithdrawalAnswer> = z.strictObject({
  ...withdrawalShape,
  memberId: uuid,
  member: z.strictObject({ id: uuid, fullName: z.string(), phone: z.string(), email: z.string().nullable() }).nullable(),
});

const notificationShape = {
  id: uuid,
  title: z.string(),
  message: z.string(),
  type: z.string(),
  createdAt: isoTime,
  read: z.boolean(),
  version: count,
};
export const notificationAnswer: z.ZodType<NotificationAnswer> = z.strictObject(notificationShape);
/** What POST /api/notifications/read-all answers: how many it marked read now, and how many are left unread (0). */
export const notificationsReadAnswer = z.strictObject({ read: count, unread: count });
/** What POST /api/admin/notifications answers: the notification with the member it went to. */
export const sentNotification = z.strictObject({ ...notificationShape, memberId: uuid });

export const allowedIpAnswer: z.ZodType<AllowedIpAnswer> = z.strictObject({
  id: uuid,
  ipAddress: z.string().min(1),
  description: z.string(),
  createdAt: isoTime,
  createdBy: z.string().nullable(),
});

export const adminStatsAnswer: z.ZodType<AdminStatsAnswer> = z.strictObject({
  withdrawals: z.strictObject({ total: count, processed: count, pending: count, rejected: count, totalAmount: pesos, rejectedAmount: pesos }),
  loans: z.strictObject({ total: count, byStatus: z.record(z.string(), count), totalAmount: pesos, disbursedAmount: pesos }),
  members: z.strictObject({ total: count, active: count, pending: count, suspended: count, totalBalance: pesos }),
});

export const auditEventAnswer: z.ZodType<AuditEventAnswer> = z.strictObject({
  stream: z.string(),
  revision: count,
  position: count,
  type: z.string(),
  data: z.record(z.string(), z.unknown()),
  metadata: z.strictObject({ actorId: z.string().nullable(), ip: z.string().nullable(), correlationId: z.string().nullable(), causationId: z.string().nullable() }),
  createdAt: isoTime,
});

export const listOf = <T extends z.ZodType>(item: T) => z.strictObject({ items: z.array(item), total: count, page: z.number().int().positive(), pageSize: z.number().int().positive() });
export const deleted = z.strictObject({ success: z.literal(true), id: z.string() });
export const signedIn = <T extends z.ZodType>(user: T) => z.strictObject({ success: z.literal(true), token: z.string().min(20), user: user.nullable() });

// ── The auditor's API (issue 16) ──────────────────────────────────────────────────────────

const hashHex = z.string().regex(/^[0-9a-f]{64}$/);
const centavos = z.number().int();
const moneyCount = z.strictObject({ count, amountCentavos: centavos });

export const auditLogEvent: z.ZodType<AuditLogEvent> = z.strictObject({
  stream: z.string(),
  revision: count,
  position: count,
  type: z.string(),
  data: z.record(z.string(), z.unknown()),
  metadata: z.strictObject({ actorId: z.string().nullable(), ip: z.string().nullable(), correlationId: z.string().nullable(), causationId: z.string().nullable() }),
  createdAt: isoTime,
  id: uuid,
  hash: hashHex.nullable(),
  prevHash: hashHex.nullable(),
});

export const auditEventsAnswer: z.ZodType<AuditEventsAnswer> = z.strictObject({ events: z.array(auditLogEvent), next: count.nullable(), scannedTo: count, head: count });

export const auditStreamAnswer: z.ZodType<AuditStreamAnswer> = z.strictObject({
  stream: z.string(),
  aggregate: z.string().nullable(),
  revisions: count,
  asOf: z.strictObject({ revision: z.number().int().min(-1), position: count.nullable(), createdAt: isoTime.nullable() }),
  events: z.array(auditLogEvent),
  state: z.unknown(),
  previous: z.unknown(),
});

const bookFigures: z.ZodType<BookFigures> = z.strictObject({
  members: z.strictObject({ total: count, active: count, pending: count, suspended: count, closed: count }),
  loans: z.strictObject({
    byStatus: z.record(z.string(), z.strictObject({ count, principalCentavos: centavos, outstandingPrincipalCentavos: centavos })),
    outstandingPrincipalCentavos: centavos,
    disbursed: moneyCount,
  }),
  wallets: z.strictObject({ totalBalanceCentavos: centavos }),
  withdrawals: z.strictObject({ pending: moneyCount, paid: moneyCount, rejected: moneyCount }),
  repayments: moneyCount,
  balanceAdjustments: z.strictObject({ count, netCentavos: centavos }),
});

export const bookAnswer: z.ZodType<BookAnswer> = z.discriminatedUnion('status', [
  z.strictObject({
    status: z.literal('ready'),
    asOf: isoTime,
    position: count,
    book: z.strictObject({
      position: count,
      lastEventAt: isoTime.nullable(),
      events: count,
      figures: bookFigures,
      series: z.array(
        z.strictObject({
          date: z.iso.date(),
          position: count,
          walletsCentavos: centavos,
          outstandingPrincipalCentavos: centavos,
          withdrawalsPendingCentavos: centavos,
          withdrawalsPaidCentavos: centavos,
          repaymentsCentavos: centavos,
          members: count,
        }),
      ),
    }),
  }),
  z.strictObject({ status: z.literal('running'), asOf: isoTime, position: count, jobId: z.string().regex(/^book-\d+$/), progress: z.strictObject({ folded: count, of: count }) }),
]);

export const auditCheckpointsAnswer: z.ZodType<AuditCheckpointsAnswer> = z.strictObject({
  publicKeys: z.array(z.string()),
  checkpoints: z.array(z.strictObject({ position: count, hash: hashHex, time: isoTime, signature: z.string(), publicKey: z.string(), recordedAt: count, trusted: z.boolean() })),
});

export const verifyJobAnswer: z.ZodType<VerifyJobAnswer> = z.strictObject({
  jobId: z.string(),
  status: z.enum(['running', 'passed', 'failed']),
  from: count,
  to: count.nullable(),
  verifiedTo: count,
  checkedEvents: count,
  checkedCheckpoints: count,
  firstBad: z.strictObject({ position: count, reason: z.enum(['changed-content', 'missing-event', 'broken-link', 'forged-checkpoint', 'checkpoint-mismatch']), detail: z.string() }).nullable(),
  startedAt: isoTime,
  finishedAt: isoTime.nullable(),
  error: z.string().nullable(),
});

export const unmaskAnswer: z.ZodType<UnmaskAnswer> = z.strictObject({
  memberId: uuid,
  unmaskedUntil: isoTime,
  member: z.strictObject({
    fullName: z.string(),
    phone: z.string(),
    email: z.string().nullable(),
    address: z.string().nullable(),
    referenceName: z.string().nullable(),
    referencePhone: z.string().nullable(),
    bankName: z.string().nullable(),
    bankAccountNumber: z.string().nullable(),
  }),
});

// ── Answers once written in the fuzzing check's table, now declared with their routes ─────

export const readyAnswer = z.strictObject({
  status: z.literal('ready'),
  eventStore: z.literal('ok'),
  eventStoreKind: z.string(),
  redis: z.literal('ok'),
  projectionLag: count,
  projectionLagUnit: z.enum(['events', 'bytes']),
});
export const success = z.strictObject({ success: z.literal(true) });
export const uploadAnswer = z.strictObject({ url: z.string().startsWith('/api/files/'), fileId: uuid, contentType: z.literal('image/png'), size: z.number().int().positive() });
export const withdrawalOtpAnswer = z.strictObject({
  sentTo: z.string(),
  expiresAt: z.iso.datetime(),
  challengeId: uuid,
  destination: z
    .string()
    .regex(/^.+ ••••.{0,4}$/)
    .optional(),
});
/** A member an admin created, reset the password of: the member as admins see them. */
export const memberChanged = z.strictObject({ success: z.literal(true), user: adminMemberAnswer });
/** A password reset staff started: where the code went (masked) and the member as it now stands. */
export const staffPasswordReset = z.strictObject({ success: z.literal(true), message: z.string().min(1), sentTo: z.string().regex(/^\+63•+\d{4}$/), user: adminMemberAnswer });
export const balanceAdjusted = z.strictObject({
  adjustment: z.strictObject({ id: uuid, amount: z.number(), reason: z.string(), balanceAfter: z.number() }),
  user: adminMemberAnswer,
});
export const loanStatusesAnswer = z.strictObject({ statuses: z.array(z.string()), builtIn: z.array(z.string()), custom: z.array(z.string()) });
export const streamEventsAnswer = z.strictObject({ stream: z.string(), events: z.array(auditEventAnswer) });
export const eventsPageAnswer = z.strictObject({ events: z.array(auditEventAnswer), next: count.nullable() });
export const verifyStartedAnswer = z.strictObject({ jobId: z.string().regex(/^verify-[0-9a-f-]{36}$/) });
export const latestVerificationAnswer = z.strictObject({ latest: verifyJobAnswer.nullable() });

/** GET /api/company (and the PUT that sets it): the lender's identity, or {} while not set. */
const companyShape = {
  companyName: z.string().min(1),
  secRegistrationNumber: z.string().min(1),
  certificateOfAuthorityNumber: z.string().min(1),
  dateRegistered: businessDate,
  status: z.string().min(1),
  address: z.string().min(1),
  contact: z.string().min(1),
};
export const companyDetailsAnswer: z.ZodType<CompanyDetails> = z.strictObject(companyShape);
export const companyAnswer: z.ZodType<CompanyAnswer> = z.union([z.strictObject(companyShape), z.strictObject({})]);

/** GET /api/loans/:id/disclosure: the statement's exact text and its SHA-256. */
export const disclosureAnswer: z.ZodType<DisclosureAnswer> = z.strictObject({
  statement: z.string().startsWith('DISCLOSURE STATEMENT ON LOAN TRANSACTION'),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  acceptedAt: isoTime.nullable(),
  acceptBy: isoTime,
});

/** GET /api/health: liveness, and whether the operator published the lender's details. */
export const healthAnswer = z.strictObject({
  status: z.literal('ok'),
  operatorDetails: z.enum(['set', 'missing', 'unknown']),
  warnings: z.array(z.string()).optional(),
});
/** A code that confirms a new payout account, texted to the member; `destination` names the account, masked. */
export const bankChangeCodeAnswer = z.strictObject({ sentTo: z.string(), expiresAt: z.iso.datetime(), challengeId: uuid, destination: z.string().regex(/^.+ ••••.{0,4}$/) });

/** The privacy notice in force (RA 10173): its version and full text. */
export const privacyNoticeAnswer = z.strictObject({ version: z.string().min(1), text: z.string().min(200), dataProtectionOfficer: z.string().nullable() });
/** An account closed at the member's request. */
export const accountClosedAnswer = z.strictObject({ success: z.literal(true), message: z.string().min(1), closure: closureAnswer });

/** Download my data (RA 10173 sec. 16(c), 18): everything held about the member, one JSON file. */
export const dataExportAnswer = z.strictObject({
  exportedAt: isoTime,
  about: z.string().min(1),
  profile: userAnswer.nullable(),
  documents: z.array(z.strictObject({ fileId: uuid, contentType: z.string(), sizeBytes: count, uploadedAt: isoTime, usedAs: z.enum(['idFront', 'idBack', 'selfie']).nullable() })),
  loans: z.array(loanAnswer),
  repayments: z.array(z.strictObject({ loanId: uuid, repaymentId: uuid, receiptNumber: z.string(), amount: pesos, channel: z.string(), valueDate: z.string(), receivedAt: isoTime, reversed: z.boolean() })),
  withdrawals: z.array(withdrawalAnswer),
  notifications: z.array(notificationAnswer),
  events: z.array(z.strictObject({ stream: z.string(), revision: count, position: count, type: z.string(), data: z.record(z.string(), z.unknown()), createdAt: isoTime })),
});

// ── Four eyes on money (design §11) ───────────────────────────────────────────────────────

/** 202 of a command that waits for a second admin's approval. */
export const awaitingApproval: z.ZodType<AwaitingApprovalAnswer> = z.strictObject({ approvalId: uuid, status: z.literal('awaiting_approval') });
/** What a command that may need a second admin answers: its own answer, or 202 awaiting approval. */
export const orAwaitingApproval = <T extends z.ZodType>(answer: T) => z.union([answer, awaitingApproval]);
const staffName = z.strictObject({ id: z.string(), name: z.string().nullable() });
export const approvalAnswer: z.ZodType<ApprovalAnswer> = z.strictObject({
  id: uuid,
  kind: z.enum(APPROVAL_KINDS),
  kindLabel: z.string(),
  summary: z.string(),
  amount: z.number().nullable(),
  memberId: uuid,
  memberName: z.string().nullable(),
  loanId: uuid.nullable(),
  target: z.string().nullable(),
  maker: staffName,
  reason: z.string(),
  status: z.enum(APPROVAL_STATUSES),
  requestedAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  decidedBy: staffName.nullable(),
  decidedAt: z.iso.datetime().nullable(),
  rejectionReason: z.string().nullable(),
  execution: z.strictObject({ outcome: z.enum(['done', 'refused', 'running']), message: z.string().nullable() }).nullable(),
  version: z.number().int().nonnegative(),
});
export const approvalSettingsAnswer: z.ZodType<ApprovalSettingsAnswer> = z.strictObject({
  required: z.strictObject(Object.fromEntries(APPROVAL_KINDS.map((kind) => [kind, z.boolean()])) as Record<ApprovalKind, z.ZodBoolean>),
  withdrawalThreshold: z.number().nonnegative(),
  loanApprovalThreshold: z.number().nonnegative(),
});

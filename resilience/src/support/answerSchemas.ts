import { z } from 'zod';
import type {
  AdminAccountEntry,
  AdminAnswer,
  AdminLoanAnswer,
  AdminMemberAnswer,
  AdminOtpStatus,
  AdminStatsAnswer,
  AdminWithdrawalAnswer,
  AllowedIpAnswer,
  AuditEventAnswer,
  CreditTier,
  LoanAnswer,
  NotificationAnswer,
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
  phone: z.string().regex(/^\+63\d{10}$/),
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
  createdAt: isoTime,
  version: count,
};
export const userAnswer: z.ZodType<UserAnswer> = z.strictObject(userShape);

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
export const adminMemberAnswer: z.ZodType<AdminMemberAnswer> = z.strictObject({ ...userShape, updatedAt: isoTime, otp: adminOtpStatus.nullable() });

const adminShape = {
  id: uuid,
  username: z.string().min(1),
  fullName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  role: z.enum(['admin', 'superadmin']),
  isAdmin: z.literal(true),
  isMainAdmin: z.boolean(),
  createdAt: isoTime,
};
export const adminAnswer: z.ZodType<AdminAnswer> = z.strictObject(adminShape);
const accountEntryShape = { ...adminShape, label: z.literal('Main Admin').nullable(), canEdit: z.boolean(), canDelete: z.boolean() };
export const adminAccountEntry: z.ZodType<AdminAccountEntry> = z.strictObject(accountEntryShape);
/** PATCH of the main admin's own password answers a fresh token with the entry. */
export const editedAdminAccount = z.strictObject({ ...accountEntryShape, token: z.string().optional() });

const scheduleRow = z.strictObject({
  month: z.number().int().positive(),
  dueDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  amount: pesos,
  principal: pesos,
  interest: pesos,
  status: z.literal('pending'),
});
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
  withdrawals: z.strictObject({ total: count, processed: count, pending: count, rejected: count, totalAmount: pesos }),
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

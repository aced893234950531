import { centavosToPesos } from './money.js';
import { creditTierOf, type CreditTier } from './credit.js';
import type { AdminDoc, LoanDoc, MemberDoc, NotificationDoc, WithdrawalDoc } from './readModels.js';
import { paymentSchedule, truthInLending } from './loans/repayment.js';

/** Every error answer of the API. */
export interface ApiErrorBody {
  message: string;
  code: string;
  details?: Record<string, unknown>;
}

/** The borrower's `user` as the API answers it: pesos, derived verification flags, no secrets. */
export interface UserAnswer {
  id: string;
  phone: string;
  fullName: string;
  email: string | null;
  address: string | null;
  countryOfWork: string | null;
  monthlySalary: number | null;
  referenceName: string | null;
  referencePhone: string | null;
  bankName: string | null;
  bankAccountNumber: string | null;
  idFrontUrl: string | null;
  idBackUrl: string | null;
  selfieUrl: string | null;
  balance: number;
  creditScore: number;
  creditTier: CreditTier;
  status: MemberDoc['status'];
  accountStatus: MemberDoc['status'];
  role: 'borrower';
  isAdmin: false;
  personalInfoComplete: boolean;
  documentsComplete: boolean;
  verified: boolean;
  createdAt: string;
  version: number;
}

/** Spec §4: personal info is complete when these five are set. */
export function isPersonalInfoComplete(doc: MemberDoc): boolean {
  return Boolean(doc.fullName && doc.address && doc.monthlySalaryCentavos !== null && doc.bankName && doc.bankAccountNumber);
}

/** Spec §4: documents are complete when all three exist. */
export function areDocumentsComplete(doc: MemberDoc): boolean {
  return Boolean(doc.documents.idFront && doc.documents.idBack && doc.documents.selfie);
}

/** `documentUrl` turns a stored file id into a URL the member's browser may load (signed, short-lived). */
export function toUserAnswer(doc: MemberDoc, documentUrl: (fileId: string) => string): UserAnswer {
  const personalInfoComplete = isPersonalInfoComplete(doc);
  const documentsComplete = areDocumentsComplete(doc);
  const urlOf = (fileId: string | null) => (fileId ? documentUrl(fileId) : null);
  return {
    id: doc.id,
    phone: doc.phone,
    fullName: doc.fullName,
    email: doc.email,
    address: doc.address,
    countryOfWork: doc.countryOfWork,
    monthlySalary: doc.monthlySalaryCentavos === null ? null : centavosToPesos(doc.monthlySalaryCentavos),
    referenceName: doc.referenceName,
    referencePhone: doc.referencePhone,
    bankName: doc.bankName,
    bankAccountNumber: doc.bankAccountNumber,
    idFrontUrl: urlOf(doc.documents.idFront),
    idBackUrl: urlOf(doc.documents.idBack),
    selfieUrl: urlOf(doc.documents.selfie),
    balance: centavosToPesos(doc.balanceCentavos),
    creditScore: doc.creditScore,
    creditTier: creditTierOf(doc.creditScore),
    status: doc.status,
    accountStatus: doc.status,
    role: 'borrower',
    isAdmin: false,
    personalInfoComplete,
    documentsComplete,
    verified: personalInfoComplete && documentsComplete,
    createdAt: doc.createdAt,
    version: doc.version,
  };
}

export interface AdminAnswer {
  id: string;
  username: string;
  fullName: string;
  email: string | null;
  phone: string | null;
  role: AdminDoc['role'];
  isAdmin: true;
  isMainAdmin: boolean;
  createdAt: string;
}

export function toAdminAnswer(doc: AdminDoc): AdminAnswer {
  return {
    id: doc.id,
    username: doc.username,
    fullName: doc.fullName,
    email: doc.email,
    phone: doc.phone,
    role: doc.role,
    isAdmin: true,
    isMainAdmin: doc.role === 'superadmin',
    createdAt: doc.createdAt,
  };
}

export interface LoanAnswer {
  id: string;
  loanNumber: string;
  status: string;
  statusMessage: string | null;
  amount: number;
  termMonths: number;
  /** Flat percent per month, e.g. 2.5 */
  interestRate: number;
  monthlyPayment: number;
  purpose: string;
  createdAt: string;
  updatedAt: string;
  version: number;
  schedule: { month: number; dueDate: string; amount: number; principal: number; interest: number; status: 'pending' }[];
  /** Truth in Lending Act (RA 3765) disclosure, from the schedule's real cash flows. */
  disclosure: {
    financeCharge: number;
    totalRepayable: number;
    finalPayment: number;
    nominalMonthlyRatePercent: number;
    effectiveMonthlyRatePercent: number;
    effectiveAnnualRatePercent: number;
  };
}

export function toLoanAnswer(doc: LoanDoc): LoanAnswer {
  const terms = { principalCentavos: doc.amountCentavos, monthlyRateBps: doc.monthlyRateBps, termMonths: doc.termMonths, createdAt: doc.createdAt };
  const disclosure = truthInLending(terms);
  return {
    id: doc.id,
    loanNumber: doc.loanNumber,
    status: doc.status,
    statusMessage: doc.statusMessage,
    amount: centavosToPesos(doc.amountCentavos),
    termMonths: doc.termMonths,
    interestRate: doc.monthlyRateBps / 100,
    monthlyPayment: centavosToPesos(disclosure.monthlyPaymentCentavos),
    purpose: doc.purpose,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    version: doc.version,
    schedule: paymentSchedule(terms).map((row) => ({
      month: row.month,
      dueDate: row.dueDate,
      amount: centavosToPesos(row.amountCentavos),
      principal: centavosToPesos(row.principalCentavos),
      interest: centavosToPesos(row.interestCentavos),
      status: row.status,
    })),
    disclosure: {
      financeCharge: centavosToPesos(disclosure.financeChargeCentavos),
      totalRepayable: centavosToPesos(disclosure.totalRepayableCentavos),
      finalPayment: centavosToPesos(disclosure.finalPaymentCentavos),
      nominalMonthlyRatePercent: disclosure.nominalMonthlyRatePercent,
      effectiveMonthlyRatePercent: disclosure.effectiveMonthlyRatePercent,
      effectiveAnnualRatePercent: disclosure.effectiveAnnualRatePercent,
    },
  };
}

/** Only the last four digits of a bank account leave the server in borrower answers. */
export function maskAccountNumber(accountNumber: string): string {
  return `••••${accountNumber.slice(-4)}`;
}

export interface WithdrawalAnswer {
  id: string;
  withdrawalNumber: string;
  amount: number;
  bankName: string;
  bankAccountNumber: string;
  status: WithdrawalDoc['status'];
  reason: string | null;
  createdAt: string;
  processedAt: string | null;
  version: number;
}

export function toWithdrawalAnswer(doc: WithdrawalDoc): WithdrawalAnswer {
  return {
    id: doc.id,
    withdrawalNumber: doc.withdrawalNumber,
    amount: centavosToPesos(doc.amountCentavos),
    bankName: doc.bankName,
    bankAccountNumber: maskAccountNumber(doc.bankAccountNumber),
    status: doc.status,
    reason: doc.reason,
    createdAt: doc.createdAt,
    processedAt: doc.processedAt,
    version: doc.version,
  };
}

export type NotificationAnswer = Omit<NotificationDoc, 'memberId'>;

export function toNotificationAnswer(doc: NotificationDoc): NotificationAnswer {
  const { memberId: _owner, ...answer } = doc;
  return answer;
}

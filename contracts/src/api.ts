import { centavosToPesos } from './money.js';
import { creditTierOf, type CreditTier } from './credit.js';
import type { AdminDoc, MemberDoc } from './readModels.js';

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

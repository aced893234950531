import { profileFields, type UserAnswer } from '@honeylend/contracts';
import { create } from 'zustand';
import { ApiError, apiRequest, apiUpload } from '../../shared/api';
import { useSession } from './session';

/**
 * The profile screen's writes. The member document itself has one home, the session store
 * (`useSession().user`), where REST answers and `member.updated` pushes meet under the version
 * rule; this store holds what is being saved or uploaded.
 */

export const PROFILE_FIELDS = ['fullName', 'email', 'address', 'countryOfWork', 'monthlySalary', 'referenceName', 'referencePhone', 'bankName', 'bankAccountNumber'] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
export type ProfileValues = Record<ProfileField, string>;
export type ProfileErrors = Partial<Record<ProfileField, string>>;

export const PROFILE_LABELS: Record<ProfileField, string> = {
  fullName: 'Full name',
  email: 'Email',
  address: 'Address',
  countryOfWork: 'Country of work',
  monthlySalary: 'Monthly salary (₱)',
  referenceName: 'Reference name',
  referencePhone: 'Reference phone',
  bankName: 'Bank name',
  bankAccountNumber: 'Account number',
};

export function profileValuesOf(user: UserAnswer): ProfileValues {
  return {
    fullName: user.fullName ?? '',
    email: user.email ?? '',
    address: user.address ?? '',
    countryOfWork: user.countryOfWork ?? '',
    monthlySalary: user.monthlySalary === null ? '' : String(user.monthlySalary),
    referenceName: user.referenceName ?? '',
    referencePhone: user.referencePhone ?? '',
    bankName: user.bankName ?? '',
    bankAccountNumber: user.bankAccountNumber ?? '',
  };
}

/** Spec §5 profile rules with the server's own schemas and messages; email alone is optional. */
export function validateProfile(values: ProfileValues): ProfileErrors {
  const errors: ProfileErrors = {};
  for (const field of PROFILE_FIELDS) {
    const result = profileFields[field].safeParse(values[field]);
    if (!result.success) errors[field] = result.error.issues[0]?.message ?? 'Please check this field';
  }
  return errors;
}

export type DocumentKind = 'idFront' | 'idBack' | 'selfie';
export const DOCUMENT_KINDS: readonly DocumentKind[] = ['idFront', 'idBack', 'selfie'];
export const DOCUMENT_LABELS: Record<DocumentKind, string> = { idFront: 'ID Front', idBack: 'ID Back', selfie: 'Selfie' };
export const DOCUMENT_URL_FIELD = { idFront: 'idFrontUrl', idBack: 'idBackUrl', selfie: 'selfieUrl' } as const;

/** What POST /api/upload takes: JPEG, PNG or WebP, at most 8 MB. */
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const MAX_UPLOAD_BYTES = 8 * 1024 * 1024;

/** Why a chosen file cannot be sent, or null when it can. */
export function imageFileProblem(file: File): string | null {
  if (!(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type)) return 'Choose a JPEG, PNG or WebP image';
  if (file.size > MAX_UPLOAD_BYTES) return 'Images must be at most 8 MB';
  return null;
}

/**
 * A file named .png (or given an image type) may hold anything; the server checks the bytes and
 * refuses it. The same check here, before the file is called "Ready to upload": JPEG, PNG and WebP
 * by their first bytes.
 */
export async function imageContentProblem(file: Blob): Promise<string | null> {
  const head = await firstBytes(file, 12);
  const starts = (...bytes: number[]) => bytes.every((byte, i) => head[i] === byte);
  const jpeg = starts(0xff, 0xd8, 0xff);
  const png = starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
  const webp = starts(0x52, 0x49, 0x46, 0x46) && head[8] === 0x57 && head[9] === 0x45 && head[10] === 0x42 && head[11] === 0x50;
  return jpeg || png || webp ? null : 'This file is not a JPEG, PNG or WebP image';
}

/** The first `count` bytes of a file (FileReader: every browser has it, and so does the test DOM). */
function firstBytes(file: Blob, count: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsArrayBuffer(file.slice(0, count));
  });
}

/** An upload that failed, naming the document it was for (so the borrower knows which file to replace). */
export class DocumentUploadError extends Error {
  override readonly name = 'DocumentUploadError';
  constructor(
    readonly kind: DocumentKind,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** What POST /api/user/bank-account/otp answered: where the code went, until when, for which account. */
export interface BankChangeCode {
  sentTo: string;
  expiresAt: string;
  destination: string;
}

/** Whether these values replace a bank account the member already has (that takes a texted code). */
export function replacesBankAccount(user: Pick<UserAnswer, 'bankName' | 'bankAccountNumber'>, values: Pick<ProfileValues, 'bankName' | 'bankAccountNumber'>): boolean {
  if (!user.bankName || !user.bankAccountNumber) return false;
  const number = values.bankAccountNumber.replace(/[\s-]/g, '');
  return values.bankName.trim() !== user.bankName || number !== user.bankAccountNumber;
}

interface ProfileState {
  saving: boolean;
  uploading: boolean;
  /** PUT /api/user/profile with the personal information (and the texted code when the bank account changes); resolves with the saved member. */
  save: (values: ProfileValues, otp?: string) => Promise<UserAnswer>;
  /** Texts the member a code confirming the new bank account. */
  requestBankChangeCode: (bankName: string, bankAccountNumber: string) => Promise<BankChangeCode>;
  /** Uploads the chosen images, then records them on the profile in one update. */
  uploadDocuments: (files: Partial<Record<DocumentKind, File>>) => Promise<UserAnswer | null>;
}

export const useProfile = create<ProfileState>()((set) => ({
  saving: false,
  uploading: false,

  async save(values, otp) {
    set({ saving: true });
    try {
      const body: Record<string, string> = {};
      for (const field of PROFILE_FIELDS) body[field] = values[field].trim();
      if (otp !== undefined) body.otp = otp.trim();
      const member = await apiRequest<UserAnswer>('/api/user/profile', { method: 'PUT', body });
      useSession.getState().acceptMember(member);
      return member;
    } finally {
      set({ saving: false });
    }
  },

  async requestBankChangeCode(bankName, bankAccountNumber) {
    set({ saving: true });
    try {
      return await apiRequest<BankChangeCode>('/api/user/bank-account/otp', { method: 'POST', body: { bankName: bankName.trim(), bankAccountNumber: bankAccountNumber.trim() } });
    } finally {
      set({ saving: false });
    }
  },

  async uploadDocuments(files) {
    const chosen = DOCUMENT_KINDS.filter((kind) => files[kind]);
    if (chosen.length === 0) return null;
    set({ uploading: true });
    try {
      const body: Record<string, string> = {};
      for (const kind of chosen) {
        const file = files[kind]!;
        let uploaded: { url: string };
        try {
          uploaded = await apiUpload<{ url: string }>('/api/upload', file, file.name || `${kind}.jpg`);
        } catch (error) {
          if (error instanceof ApiError && error.accountSuspended) throw error;
          throw new DocumentUploadError(kind, (error instanceof Error && error.message) || 'Upload failed', { cause: error });
        }
        body[DOCUMENT_URL_FIELD[kind]] = uploaded.url;
      }
      const member = await apiRequest<UserAnswer>('/api/user/profile', { method: 'PUT', body });
      useSession.getState().acceptMember(member);
      return member;
    } finally {
      set({ uploading: false });
    }
  },
}));

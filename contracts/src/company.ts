import { z } from 'zod';

/**
 * The lender's legal identity (SEC Memorandum Circular No. 19, s. 2019: an online lending
 * platform shows its corporate name, SEC registration number and Certificate of Authority number).
 * Set by the main admin (Settings → Company) and shown to borrowers only once set: Honeylend never
 * shows a claim the operator has not made (design §7).
 */
const field = (max: number) => z.string().trim().min(1, 'Required').max(max);

export const companyDetailsSchema = z
  .object({
    companyName: field(200),
    secRegistrationNumber: field(60),
    certificateOfAuthorityNumber: field(60),
    /** YYYY-MM-DD, as on the SEC certificate. */
    dateRegistered: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'A date as YYYY-MM-DD')
      .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), 'A real calendar date'),
    /** As the SEC lists it, e.g. "Registered" or "Active". */
    status: field(60),
    address: field(300),
    /** How a borrower reaches the lender: a phone number or an email address. */
    contact: field(200),
  })
  .strict();
export type CompanyDetails = z.infer<typeof companyDetailsSchema>;

// What a browser page needs to show the lender lives in a module without zod, so the borrower
// app's first load (every page has the company footer) does not download the validation library
// (issue 20).
export { DISCLOSURE_ADVISORY, isCompanySet, SEC_CHECK_URL, type CompanyAnswer } from './companyIdentity.js';

import type { CompanyDetails } from './company.js';

/** GET /api/company: the details, or `{}` while the operator has set none. */
export type CompanyAnswer = CompanyDetails | Record<string, never>;

export function isCompanySet(answer: CompanyAnswer | null | undefined): answer is CompanyDetails {
  return !!answer && 'companyName' in answer;
}

/** The securities regulator, where a borrower can check that a lender is registered and licensed. */
export const SEC_CHECK_URL = 'https://www.sec.gov.ph/';

/** The advisory every borrower page carries under SEC MC 19 s.2019 once the lender is named. */
export const DISCLOSURE_ADVISORY = 'Read the Disclosure Statement before you proceed';

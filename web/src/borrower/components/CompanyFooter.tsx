import { DISCLOSURE_ADVISORY } from '@honeylend/contracts';
import { useCompany } from '../../shared/companyStore';

/**
 * SEC MC 19 s.2019: every borrower page names the lender — corporate name, SEC registration and
 * Certificate of Authority numbers — with the advisory to read the Disclosure Statement. Drawn
 * only once the operator published its details (design §7).
 */
export function CompanyFooter() {
  const company = useCompany((state) => state.company);
  if (!company) return null;
  return (
    <footer className="company-footer" aria-label="Lender">
      <p className="company-footer__name">{company.companyName}</p>
      <p>
        SEC Registration No. {company.secRegistrationNumber} · Certificate of Authority No. {company.certificateOfAuthorityNumber}
      </p>
      <p className="company-footer__advisory">{DISCLOSURE_ADVISORY}</p>
    </footer>
  );
}

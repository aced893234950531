import { useState } from 'react';
import { SEC_CHECK_URL, type CompanyDetails } from '@honeylend/contracts';
import { useCompany } from '../../shared/companyStore';
import { Dialog } from './Dialog';
import { ShieldIcon } from './icons';

/**
 * Regulator badges, the 'Check with SEC' link and the Company details dialog (spec §1–2). Design
 * §7: these are claims only the operator can make, so they are drawn from the details it published
 * (GET /api/company) — and nothing is drawn at all until then. The badges state only what those
 * details say: registered with the SEC, and holding a Certificate of Authority to lend.
 */
export function OperatorDetails({ details }: { details?: CompanyDetails | null }) {
  const published = useCompany((state) => state.company);
  const company = details === undefined ? published : details;
  const [open, setOpen] = useState(false);
  if (!company) return null;
  return (
    <section className="card operator" aria-labelledby="operator-title">
      <h2 id="operator-title" className="card__title">
        Licensed and regulated
      </h2>
      <ul className="operator__regulators" aria-label="Badges">
        <li>
          <ShieldIcon size={20} />
          SEC Registered · {company.secRegistrationNumber}
        </li>
        <li>
          <ShieldIcon size={20} />
          Certificate of Authority · {company.certificateOfAuthorityNumber}
        </li>
      </ul>
      <div className="operator__actions">
        <a className="button button--secondary" href={SEC_CHECK_URL} target="_blank" rel="noopener noreferrer">
          Check with SEC
        </a>
        <button type="button" className="button button--secondary" onClick={() => setOpen(true)}>
          Company details
        </button>
      </div>
      <Dialog
        open={open}
        title="COMPANY DETAILS"
        onClose={() => setOpen(false)}
        actions={
          <button type="button" className="button button--primary" onClick={() => setOpen(false)}>
            Close
          </button>
        }
      >
        <dl className="details-list">
          <dt>Company name</dt>
          <dd>{company.companyName}</dd>
          <dt>SEC registration number</dt>
          <dd>{company.secRegistrationNumber}</dd>
          <dt>Certificate of Authority number</dt>
          <dd>{company.certificateOfAuthorityNumber}</dd>
          <dt>Date registered</dt>
          <dd>{company.dateRegistered}</dd>
          <dt>Status</dt>
          <dd>{company.status}</dd>
          <dt>Address</dt>
          <dd>{company.address}</dd>
          <dt>Contact</dt>
          <dd>{company.contact}</dd>
        </dl>
      </Dialog>
    </section>
  );
}

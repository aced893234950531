import { useState } from 'react';
import { operatorDetails, type OperatorDetails as Details } from '../../shared/operatorDetails';
import { Dialog } from './Dialog';
import { ShieldIcon } from './icons';

/**
 * Regulator logos, the 'Check with SEC' link and the 'COMPANY DETAILS' dialog (spec §1–2). Design
 * §7: these are claims only the operator can make, so they are drawn only when configured — and
 * nothing is drawn at all until then.
 */
export function OperatorDetails({ details = operatorDetails() }: { details?: Details | null }) {
  const [open, setOpen] = useState(false);
  if (!details) return null;
  const { company, regulators, secCheckUrl } = details;
  return (
    <section className="card operator" aria-labelledby="operator-title">
      <h2 id="operator-title" className="card__title">
        Licensed and regulated
      </h2>
      {regulators.length > 0 && (
        <ul className="operator__regulators">
          {regulators.map((regulator) => (
            <li key={regulator.name}>
              <ShieldIcon size={20} />
              {regulator.name}
            </li>
          ))}
        </ul>
      )}
      <div className="operator__actions">
        {secCheckUrl && (
          <a className="button button--secondary" href={secCheckUrl} target="_blank" rel="noopener noreferrer">
            Check with SEC
          </a>
        )}
        {company && (
          <button type="button" className="button button--secondary" onClick={() => setOpen(true)}>
            COMPANY DETAILS
          </button>
        )}
      </div>
      {company && (
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
            <dd>{company.name}</dd>
            <dt>Registration number</dt>
            <dd>{company.registrationNumber}</dd>
            <dt>Date registered</dt>
            <dd>{company.dateRegistered}</dd>
            <dt>Status</dt>
            <dd>{company.status}</dd>
            <dt>Address</dt>
            <dd>{company.address}</dd>
          </dl>
        </Dialog>
      )}
    </section>
  );
}

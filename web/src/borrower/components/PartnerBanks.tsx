/** Spec §1: the partner banks, drawn as lettered marks (no third-party logos are shipped). */
const PARTNER_BANKS = [
  { name: 'BPI', mark: 'BPI', tone: 'bpi' },
  { name: 'UnionBank', mark: 'UB', tone: 'unionbank' },
  { name: 'GCash', mark: 'G', tone: 'gcash' },
  { name: 'Maya', mark: 'M', tone: 'maya' },
  { name: 'CIMB Bank', mark: 'CIMB', tone: 'cimb' },
] as const;

export function PartnerBanks() {
  return (
    <section className="card partner-banks" aria-labelledby="partner-banks-title">
      <h2 id="partner-banks-title" className="card__title">
        Partner Banks
      </h2>
      <ul className="partner-banks__list">
        {PARTNER_BANKS.map((bank) => (
          <li key={bank.name} className="partner-banks__bank">
            <span className={`partner-banks__mark partner-banks__mark--${bank.tone}`} aria-hidden="true">
              {bank.mark}
            </span>
            {bank.name}
          </li>
        ))}
      </ul>
    </section>
  );
}

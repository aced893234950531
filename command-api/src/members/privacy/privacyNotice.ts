import { PRIVACY_NOTICE_VERSION, type CompanyDetails } from '@honeylend/contracts';

/** Years the law keeps a lender's records of a customer and their transactions after the relationship ends. */
export const RECORD_RETENTION_YEARS = 5;

export interface PrivacyNotice {
  version: string;
  text: string;
  /** Who answers data privacy requests: the lender's contact, once the operator set the company details. */
  dataProtectionOfficer: string | null;
}

/** The data protection officer's contact, from the lender's details; null while they are not set (never an invented one). */
export function dataProtectionOfficerOf(company: CompanyDetails | null): string | null {
  return company ? `Data Protection Officer, ${company.companyName}, ${company.address} — ${company.contact}` : null;
}

/**
 * The privacy notice (RA 10173, the Data Privacy Act of 2012, and the NPC's implementing rules):
 * what Honeylend collects, why, how long, who sees it, and the member's rights. The version names
 * this text: change the text, change PRIVACY_NOTICE_VERSION (contracts/src/privacy.ts), and every
 * member is asked again at their next sign-in.
 */
export function privacyNotice(company: CompanyDetails | null, version: string = PRIVACY_NOTICE_VERSION): PrivacyNotice {
  const lender = company
    ? `${company.companyName} (SEC Registration No. ${company.secRegistrationNumber}, Certificate of Authority No. ${company.certificateOfAuthorityNumber})`
    : 'the operator of this Honeylend platform';
  const dpo = dataProtectionOfficerOf(company);
  const text = `PRIVACY NOTICE (version ${version})

This notice explains how ${lender}, the personal information controller, processes your personal data on Honeylend, as Republic Act No. 10173 (the Data Privacy Act of 2012) requires.

1. WHAT WE COLLECT
- Identity and contact: your full name, mobile number, email address (if you give one) and home address.
- Employment and income: the country where you work and your monthly salary.
- A reference person: their name and mobile number.
- Your bank account for payouts: the bank's name and the account number.
- Identity documents: the front and back of a government ID and a selfie, as images you upload.
- Your loans, repayments, wallet movements, withdrawals and the messages we send you.
- Security records: when and from which internet address you signed in, asked for a code or acted on your account; your password only as a one-way hash, and codes only as keyed hashes.

2. WHY WE PROCESS IT
- To verify who you are and assess your loan application (the contract you ask for, RA 10173 sec. 12(b)).
- To disburse, service and collect your loan and to pay out withdrawals to your own bank account only.
- To protect your account: texted codes, holds after a change of bank account or phone, and fraud checks.
- To meet our legal obligations (sec. 12(c)): the Truth in Lending Act (RA 3765) disclosure, SEC rules for lending companies, and the Anti-Money Laundering Act (RA 9160, as amended).
We do not sell your data, and we do not use your contacts, photos or social media to collect a debt.

3. WHO SEES IT
Our authorised staff (their every action is recorded), auditors (who see your data masked unless they record a reason to see it), our SMS provider (your number and the text of each code), and regulators or courts when the law requires it.

4. HOW LONG WE KEEP IT
Your records live on an append-only log that keeps every event of your account. If you close your account, we stop processing your data: you are signed out, cannot sign in again, and your name, number, email, address, reference, bank account and ID images are masked in every list and screen. What the law requires us to keep — the records of your identity, your loans and every transaction — stays on the log for ${RECORD_RETENTION_YEARS} years from the closure of the account or the last transaction (Anti-Money Laundering Act, RA 9160 sec. 9(b) as amended, and BSP/SEC record-keeping rules), to be shown only to auditors, regulators or a court, and never used for anything else.

5. YOUR RIGHTS (RA 10173 sec. 16 to 18)
- To be informed: this notice, shown before you register and again whenever it changes.
- To access and to data portability: "Download my data" on your profile gives you everything we hold about you as one JSON file, at once.
- To correct: edit your profile at any time (a new bank account or phone number needs a texted code).
- To object, and to erasure or blocking: "Close my account" on your profile stops the processing of your data once nothing is owed either way (no open loan, no pending withdrawal, an empty wallet); while something is, we tell you what.
- To withdraw your consent, and to complain to the National Privacy Commission (privacy.gov.ph) if you believe we have misused your data.

6. CONSENT
By accepting this notice you consent to the processing described above. Without it we cannot take a loan application.

7. CONTACT
${dpo ? `For any question or request about your personal data: ${dpo}.` : 'The lender has not yet published its company details or its data protection officer on this platform; until it does, ask through the support contact you were given, and check the company details shown on every page.'}
`;
  return { version, text, dataProtectionOfficer: dpo };
}

import type { LoanDoc, MemberDoc, WithdrawalDoc } from '@honeylend/contracts';

/**
 * What the admin lists' search box matches against, lowercased, one field per line. Loans and
 * withdrawals start with their member's id: the query joins the member's own text at search
 * time, so a renamed member is found under the new name everywhere without rewriting their loans.
 */
export function memberSearchText(doc: Pick<MemberDoc, 'fullName' | 'email' | 'phone'>): string {
  // Philippine numbers are also typed the local way (0917…); E.164 already contains 63917… and 917….
  const local = doc.phone.startsWith('+63') ? `0${doc.phone.slice(3)}` : '';
  return [doc.fullName, doc.email ?? '', doc.phone, local].join('\n').toLowerCase();
}

export function loanSearchText(doc: Pick<LoanDoc, 'memberId' | 'loanNumber' | 'status'>): string {
  return [doc.memberId, doc.loanNumber, doc.status].join('\n').toLowerCase();
}

export function withdrawalSearchText(doc: Pick<WithdrawalDoc, 'memberId' | 'withdrawalNumber' | 'bankName' | 'bankAccountNumber' | 'status'>): string {
  return [doc.memberId, doc.withdrawalNumber, doc.bankName, doc.bankAccountNumber, doc.status].join('\n').toLowerCase();
}

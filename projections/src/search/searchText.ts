import { maskMemberDoc, maskWithdrawalDoc, type LoanDoc, type MemberDoc, type ReadModelKeys, type WithdrawalDoc } from '@honeylend/contracts';
import type { ReadModelTransaction } from '../readModelTransaction.js';

/**
 * What the admin lists' search box matches against, lowercased, one field per line. Loans and
 * withdrawals start with their member's id: the query joins the member's own text at search
 * time, so a renamed member is found under the new name everywhere without rewriting their loans.
 *
 * Members and withdrawals are indexed twice: as stored, and as masked (the text an auditor who
 * has not unmasked the member is shown). A masked viewer's search matches the masked text, so
 * probing a hidden number digit by digit finds nothing the list does not already show.
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

export function indexMember(tx: ReadModelTransaction, keys: ReadModelKeys, doc: MemberDoc): void {
  tx.hset(keys.memberSearch, { [doc.id]: memberSearchText(doc) });
  tx.hset(keys.memberMaskedSearch, { [doc.id]: memberSearchText(maskMemberDoc(doc)) });
}

export function unindexMember(tx: ReadModelTransaction, keys: ReadModelKeys, memberId: string): void {
  tx.hdel(keys.memberSearch, memberId);
  tx.hdel(keys.memberMaskedSearch, memberId);
}

export function indexWithdrawal(tx: ReadModelTransaction, keys: ReadModelKeys, doc: WithdrawalDoc): void {
  tx.hset(keys.withdrawalSearch, { [doc.id]: withdrawalSearchText(doc) });
  tx.hset(keys.withdrawalMaskedSearch, { [doc.id]: withdrawalSearchText(maskWithdrawalDoc(doc)) });
}

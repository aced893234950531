import { isLoanAccountEvent, maskLoanDoc, rooms, streams, type LoanDoc, type ReadModelKeys } from '@honeylend/contracts';
import type { ProjectedEvent, Projection } from '../projection.js';
import type { ReadModelTransaction } from '../readModelTransaction.js';
import { loanSearchText } from '../search/searchText.js';
import { applyServicingEvent } from './servicingIndexes.js';

const statusField = (status: string) => `status:${status}`;

function moveStatus(tx: ReadModelTransaction, keys: ReadModelKeys, doc: LoanDoc, from: string) {
  tx.zrem(keys.loansByStatus(from), doc.id);
  tx.zadd(keys.loansByStatus(doc.status), Date.parse(doc.createdAt), doc.id);
  tx.hincrby(keys.loanStats, statusField(from), -1);
  tx.hincrby(keys.loanStats, statusField(doc.status), 1);
}

function store(tx: ReadModelTransaction, keys: ReadModelKeys, event: ProjectedEvent, doc: LoanDoc) {
  // The day close appends to the loan's stream expecting the revision this document reflects.
  if (event.stream === streams.loan(doc.id)) doc.streamRevision = event.revision;
  tx.setJson(keys.loan(doc.id), doc);
  tx.hset(keys.loanSearch, { [doc.id]: loanSearchText(doc) });
  tx.publish({ rooms: [rooms.member(doc.memberId), rooms.admins], event: 'loan.updated', doc, version: event.position });
}

/**
 * rm:loan:<id>, rm:loans (all, by application time), rm:loans:member:<id>,
 * rm:loans:status:<status>, rm:loans:search (the admin search text) and rm:loans:stats
 * (counters kept as events arrive, never computed by scanning).
 */
export const loansProjection: Projection = {
  name: 'loans',
  async apply(event, tx, keys) {
    if (isLoanAccountEvent(event)) {
      const current = await tx.getJson<LoanDoc>(keys.loan(event.data.loanId));
      if (!current) return;
      const doc = applyServicingEvent(tx, keys, current, event, event.createdAt, event.position);
      if (doc.status !== current.status) moveStatus(tx, keys, doc, current.status);
      store(tx, keys, event, doc);
      return;
    }
    switch (event.type) {
      case 'LoanApplied': {
        const { loanId, memberId, loanNumber, amountCentavos, termMonths, monthlyRateBps, purpose, appliedAt } = event.data;
        const doc: LoanDoc = {
          id: loanId,
          memberId,
          loanNumber,
          amountCentavos,
          termMonths,
          monthlyRateBps,
          purpose,
          status: 'pending',
          statusMessage: null,
          createdAt: appliedAt,
          updatedAt: appliedAt,
          version: event.position,
        };
        const appliedAtMs = Date.parse(appliedAt);
        tx.zadd(keys.loans, appliedAtMs, loanId);
        tx.zadd(keys.loansByMember(memberId), appliedAtMs, loanId);
        tx.hset(keys.loansByNumber, { [loanNumber]: loanId });
        tx.zadd(keys.loansByStatus('pending'), appliedAtMs, loanId);
        tx.hincrby(keys.loanStats, 'total', 1);
        tx.hincrby(keys.loanStats, statusField('pending'), 1);
        tx.hincrby(keys.loanStats, 'totalAmountCentavos', amountCentavos);
        store(tx, keys, event, doc);
        return;
      }
      case 'LoanStatusChanged': {
        const current = await tx.getJson<LoanDoc>(keys.loan(event.data.loanId));
        if (!current) return;
        const doc: LoanDoc = { ...current, status: event.data.to, statusMessage: event.data.message, updatedAt: event.data.changedAt, version: event.position };
        if (event.data.to === 'approved') doc.approvedAt = event.data.changedAt;
        moveStatus(tx, keys, doc, current.status);
        store(tx, keys, event, doc);
        return;
      }
      case 'LoanTermsAccepted': {
        const current = await tx.getJson<LoanDoc>(keys.loan(event.data.loanId));
        if (!current) return;
        const { acceptedAt, statementHash, businessDate } = event.data;
        store(tx, keys, event, { ...current, termsAcceptedAt: acceptedAt, termsHash: statementHash, termsAcceptedOn: businessDate ?? null, updatedAt: acceptedAt, version: event.position });
        return;
      }
      case 'LoanApprovalLapsed': {
        const current = await tx.getJson<LoanDoc>(keys.loan(event.data.loanId));
        if (!current) return;
        const doc: LoanDoc = { ...current, status: 'lapsed', statusMessage: null, updatedAt: event.data.lapsedAt, version: event.position };
        moveStatus(tx, keys, doc, current.status);
        store(tx, keys, event, doc);
        return;
      }
      case 'LoanApplicationCancelled': {
        const current = await tx.getJson<LoanDoc>(keys.loan(event.data.loanId));
        if (!current) return;
        const doc: LoanDoc = { ...current, status: 'cancelled', statusMessage: null, updatedAt: event.data.cancelledAt, version: event.position };
        moveStatus(tx, keys, doc, current.status);
        store(tx, keys, event, doc);
        return;
      }
      case 'LoanTermsChanged': {
        const current = await tx.getJson<LoanDoc>(keys.loan(event.data.loanId));
        if (!current) return;
        const { amountCentavos, termMonths, changedAt } = event.data;
        tx.hincrby(keys.loanStats, 'totalAmountCentavos', amountCentavos - current.amountCentavos);
        store(tx, keys, event, { ...current, amountCentavos, termMonths, updatedAt: changedAt, version: event.position });
        return;
      }
      case 'LoanDeleted': {
        const current = await tx.getJson<LoanDoc>(keys.loan(event.data.loanId));
        if (!current) return;
        tx.delete(keys.loan(current.id));
        tx.zrem(keys.loans, current.id);
        tx.zrem(keys.loansByMember(current.memberId), current.id);
        tx.zrem(keys.loansByStatus(current.status), current.id);
        tx.hdel(keys.loanSearch, current.id);
        tx.hdel(keys.loansByNumber, current.loanNumber);
        tx.hincrby(keys.loanStats, 'total', -1);
        tx.hincrby(keys.loanStats, statusField(current.status), -1);
        tx.hincrby(keys.loanStats, 'totalAmountCentavos', -current.amountCentavos);
        tx.publish({ rooms: [rooms.member(current.memberId), rooms.admins], event: 'loan.deleted', doc: { id: current.id }, version: event.position });
        return;
      }
      case 'MemberAccountClosed': {
        // The member closed their account (RA 10173): the purpose and messages of their loans are masked too.
        for (const loanId of event.data.loanIds) {
          const current = await tx.getJson<LoanDoc>(keys.loan(loanId));
          if (current) store(tx, keys, event, { ...maskLoanDoc(current), version: event.position });
        }
        return;
      }
      case 'LoanDisbursed':
        tx.hincrby(keys.loanStats, 'disbursedAmountCentavos', event.data.amountCentavos);
        return;
      default:
        return;
    }
  },
};

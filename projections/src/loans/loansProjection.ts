import { rooms, type LoanDoc } from '@honeylend/contracts';
import type { Projection } from '../projection.js';

/** rm:loan:<id>, rm:loans (all, by application time) and rm:loans:member:<id>. */
export const loansProjection: Projection = {
  name: 'loans',
  async apply(event, tx, keys) {
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
        tx.setJson(keys.loan(loanId), doc);
        tx.zadd(keys.loans, Date.parse(appliedAt), loanId);
        tx.zadd(keys.loansByMember(memberId), Date.parse(appliedAt), loanId);
        tx.publish({ rooms: [rooms.member(memberId), rooms.admins], event: 'loan.updated', doc, version: event.position });
        return;
      }
      case 'LoanStatusChanged': {
        const current = await tx.getJson<LoanDoc>(keys.loan(event.data.loanId));
        if (!current) return;
        const doc: LoanDoc = { ...current, status: event.data.to, statusMessage: event.data.message, updatedAt: event.data.changedAt, version: event.position };
        tx.setJson(keys.loan(doc.id), doc);
        tx.publish({ rooms: [rooms.member(doc.memberId), rooms.admins], event: 'loan.updated', doc, version: event.position });
        return;
      }
      default:
        return;
    }
  },
};

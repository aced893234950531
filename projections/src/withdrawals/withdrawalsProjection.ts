import { maskWithdrawalDoc, rooms, type WithdrawalDoc } from '@honeylend/contracts';
import type { Projection } from '../projection.js';
import { indexWithdrawal } from '../search/searchText.js';

/**
 * rm:withdrawal:<id>, rm:withdrawals, rm:withdrawals:member:<id>, rm:withdrawals:status:<status>,
 * rm:withdrawals:search and rm:withdrawals:search:masked (the admin search text, as stored and as masked), and the admin stat cards in rm:withdrawals:stats,
 * kept by counting as events arrive (never by scanning).
 */
export const withdrawalsProjection: Projection = {
  name: 'withdrawals',
  async apply(event, tx, keys) {
    switch (event.type) {
      case 'WithdrawalRequested': {
        const { withdrawalId, memberId, withdrawalNumber, amountCentavos, bankName, bankAccountNumber, requestedAt } = event.data;
        const doc: WithdrawalDoc = {
          id: withdrawalId,
          memberId,
          withdrawalNumber,
          amountCentavos,
          bankName,
          bankAccountNumber,
          status: 'pending',
          reason: null,
          createdAt: requestedAt,
          processedAt: null,
          payoutReference: null,
          version: event.position,
        };
        tx.setJson(keys.withdrawal(withdrawalId), doc);
        tx.zadd(keys.withdrawals, Date.parse(requestedAt), withdrawalId);
        tx.zadd(keys.withdrawalsByMember(memberId), Date.parse(requestedAt), withdrawalId);
        tx.zadd(keys.withdrawalsByStatus('pending'), Date.parse(requestedAt), withdrawalId);
        indexWithdrawal(tx, keys, doc);
        tx.hincrby(keys.withdrawalStats, 'total', 1);
        tx.hincrby(keys.withdrawalStats, 'pending', 1);
        tx.hincrby(keys.withdrawalStats, 'totalAmountCentavos', amountCentavos);
        tx.publish({ rooms: [rooms.member(memberId), rooms.admins], event: 'withdrawal.updated', doc, version: event.position });
        return;
      }
      case 'WithdrawalCompleted':
      case 'WithdrawalRejected': {
        const current = await tx.getJson<WithdrawalDoc>(keys.withdrawal(event.data.withdrawalId));
        if (!current || current.status !== 'pending') return;
        const completed = event.type === 'WithdrawalCompleted';
        const doc: WithdrawalDoc = {
          ...current,
          status: completed ? 'completed' : 'rejected',
          reason: completed ? null : event.data.reason,
          processedAt: completed ? event.data.processedAt : event.data.rejectedAt,
          payoutReference: completed ? (event.data.payoutReference ?? null) : null,
          version: event.position,
        };
        tx.setJson(keys.withdrawal(doc.id), doc);
        tx.zrem(keys.withdrawalsByStatus('pending'), doc.id);
        tx.zadd(keys.withdrawalsByStatus(doc.status), Date.parse(doc.createdAt), doc.id);
        indexWithdrawal(tx, keys, doc);
        tx.hincrby(keys.withdrawalStats, 'pending', -1);
        tx.hincrby(keys.withdrawalStats, completed ? 'processed' : 'rejected', 1);
        if (!completed) {
          // 'Total amount' is money requested and not refused; what was refused is counted apart.
          tx.hincrby(keys.withdrawalStats, 'totalAmountCentavos', -current.amountCentavos);
          tx.hincrby(keys.withdrawalStats, 'rejectedAmountCentavos', current.amountCentavos);
        }
        tx.publish({ rooms: [rooms.member(doc.memberId), rooms.admins], event: 'withdrawal.updated', doc, version: event.position });
        return;
      }
      case 'MemberAccountClosed': {
        // The member closed their account (RA 10173): their bank account numbers are masked here too.
        for (const withdrawalId of event.data.withdrawalIds) {
          const current = await tx.getJson<WithdrawalDoc>(keys.withdrawal(withdrawalId));
          if (!current) continue;
          const doc: WithdrawalDoc = { ...maskWithdrawalDoc(current), version: event.position };
          tx.setJson(keys.withdrawal(doc.id), doc);
          indexWithdrawal(tx, keys, doc);
          tx.publish({ rooms: [rooms.member(doc.memberId), rooms.admins], event: 'withdrawal.updated', doc, version: event.position });
        }
        return;
      }
      default:
        return;
    }
  },
};

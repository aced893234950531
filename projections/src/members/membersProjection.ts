import { DEFAULT_CREDIT_SCORE, maskMemberDoc, rooms, type MemberDoc, type MemberStatus, type ReadModelKeys } from '@honeylend/contracts';
import type { ProjectedEvent, Projection } from '../projection.js';
import type { ReadModelTransaction } from '../readModelTransaction.js';
import { indexMember, unindexMember } from '../search/searchText.js';
import { revokeSessions } from '../sessions/revokeSessions.js';

/** Applies a change to a stored member document and announces it to the member and the admins. */
async function updateMember(tx: ReadModelTransaction, keys: ReadModelKeys, event: ProjectedEvent, memberId: string, change: (doc: MemberDoc) => Partial<MemberDoc>): Promise<MemberDoc | null> {
  const current = await tx.getJson<MemberDoc>(keys.member(memberId));
  if (!current) return null;
  const doc: MemberDoc = { ...current, ...change(current), updatedAt: event.createdAt, version: event.position };
  tx.setJson(keys.member(memberId), doc);
  tx.publish({ rooms: [rooms.member(memberId), rooms.admins], event: 'member.updated', doc, version: event.position });
  return doc;
}

/** A wallet movement: the member's balance and the platform-wide sum move together. */
async function moveBalance(tx: ReadModelTransaction, keys: ReadModelKeys, event: ProjectedEvent, memberId: string, byCentavos: number) {
  const doc = await updateMember(tx, keys, event, memberId, (current) => ({ balanceCentavos: current.balanceCentavos + byCentavos }));
  if (doc) tx.hincrby(keys.memberStats, 'totalBalanceCentavos', byCentavos);
}

const joinedAt = (doc: MemberDoc) => Date.parse(doc.createdAt);

function moveStatus(tx: ReadModelTransaction, keys: ReadModelKeys, doc: MemberDoc, from: MemberStatus, to: MemberStatus) {
  tx.zrem(keys.membersByStatus(from), doc.id);
  tx.zadd(keys.membersByStatus(to), joinedAt(doc), doc.id);
  tx.hincrby(keys.memberStats, from, -1);
  tx.hincrby(keys.memberStats, to, 1);
}

/**
 * rm:member:<id> (profile and wallet balance), rm:auth:<id> (what each request checks),
 * rm:members and rm:members:status:<status> (listings by join time), rm:members:search and rm:members:search:masked (the
 * admin search text, as stored and as masked), rm:members:stats (counters, never computed by scanning) and rm:file:<id>
 * (who owns an uploaded document).
 */
export const membersProjection: Projection = {
  name: 'members',
  async apply(event, tx, keys) {
    switch (event.type) {
      case 'MemberRegistered': {
        const { memberId, phone, fullName, email, registeredAt, demo } = event.data;
        const doc: MemberDoc = {
          id: memberId,
          phone,
          fullName,
          email,
          address: null,
          countryOfWork: null,
          monthlySalaryCentavos: null,
          referenceName: null,
          referencePhone: null,
          bankName: null,
          bankAccountNumber: null,
          balanceCentavos: 0,
          creditScore: DEFAULT_CREDIT_SCORE,
          status: 'active',
          documents: { idFront: null, idBack: null, selfie: null },
          phoneVerified: false,
          ...(demo ? { demo } : {}),
          createdAt: registeredAt,
          updatedAt: registeredAt,
          version: event.position,
        };
        tx.setJson(keys.member(memberId), doc);
        tx.hset(keys.auth(memberId), { role: 'borrower', status: 'active', tokenVersion: 0 });
        tx.zadd(keys.members, joinedAt(doc), memberId);
        tx.zadd(keys.membersByStatus('active'), joinedAt(doc), memberId);
        indexMember(tx, keys, doc);
        tx.hincrby(keys.memberStats, 'total', 1);
        tx.hincrby(keys.memberStats, 'active', 1);
        tx.publish({ rooms: [rooms.member(memberId), rooms.admins], event: 'member.updated', doc, version: event.position });
        return;
      }
      case 'MemberProfileUpdated': {
        const doc = await updateMember(tx, keys, event, event.data.memberId, () => event.data.changes);
        if (doc && ('fullName' in event.data.changes || 'email' in event.data.changes)) indexMember(tx, keys, doc);
        return;
      }
      case 'MemberPhoneChanged': {
        // A new number is not proved by the old one's code.
        const doc = await updateMember(tx, keys, event, event.data.memberId, () => ({ phone: event.data.to, phoneVerified: false }));
        if (doc) indexMember(tx, keys, doc);
        return;
      }
      case 'DocumentUploaded': {
        const { fileId, memberId, contentType, sizeBytes, uploadedAt } = event.data;
        tx.setJson(keys.file(fileId), { id: fileId, memberId, contentType, sizeBytes, uploadedAt });
        return;
      }
      case 'IdentityDocumentSet':
        await updateMember(tx, keys, event, event.data.memberId, (doc) => ({ documents: { ...doc.documents, [event.data.kind]: event.data.fileId } }));
        return;
      case 'MemberCreditScoreChanged':
        await updateMember(tx, keys, event, event.data.memberId, () => ({ creditScore: event.data.to }));
        return;
      case 'WithdrawalsHeld':
        // The latest-ending hold is the one the wallet shows, as the member's decider keeps it.
        await updateMember(tx, keys, event, event.data.memberId, (doc) =>
          doc.withdrawalHold && Date.parse(doc.withdrawalHold.until) >= Date.parse(event.data.heldUntil) ? {} : { withdrawalHold: { until: event.data.heldUntil, reason: event.data.reason } },
        );
        return;
      case 'LoanDisbursed':
        return moveBalance(tx, keys, event, event.data.memberId, event.data.amountCentavos);
      case 'WithdrawalRequested':
        return moveBalance(tx, keys, event, event.data.memberId, -event.data.amountCentavos);
      case 'WithdrawalRejected': {
        // The refund is the amount held, which the withdrawal document knows.
        const held = await tx.getJson<{ amountCentavos: number }>(keys.withdrawal(event.data.withdrawalId));
        if (!held) return;
        return moveBalance(tx, keys, event, event.data.memberId, held.amountCentavos);
      }
      case 'BalanceAdjusted':
        return moveBalance(tx, keys, event, event.data.memberId, event.data.amountCentavos);
      case 'WalletRepaymentDebited':
        return moveBalance(tx, keys, event, event.data.memberId, -event.data.amountCentavos);
      case 'WalletRepaymentRefunded':
        return moveBalance(tx, keys, event, event.data.memberId, event.data.amountCentavos);
      case 'MemberStatusChanged': {
        const { memberId, from, to } = event.data;
        const doc = await updateMember(tx, keys, event, memberId, () => ({ status: to }));
        if (!doc) return;
        tx.hset(keys.auth(memberId), { status: to });
        if (to === 'suspended') {
          tx.hincrby(keys.auth(memberId), 'tokenVersion', 1);
          revokeSessions(tx, event, memberId, 'suspended');
        }
        moveStatus(tx, keys, doc, from, to);
        return;
      }
      case 'MemberPasswordReset':
      case 'MemberPasswordResetStarted':
        tx.hincrby(keys.auth(event.data.memberId), 'tokenVersion', 1);
        revokeSessions(tx, event, event.data.memberId, 'password-reset');
        return;
      case 'MemberPasswordChanged':
        tx.hincrby(keys.auth(event.data.memberId), 'tokenVersion', 1);
        revokeSessions(tx, event, event.data.memberId, 'password-changed');
        return;
      case 'MemberSignedOutEverywhere':
        tx.hincrby(keys.auth(event.data.memberId), 'tokenVersion', 1);
        revokeSessions(tx, event, event.data.memberId, 'signed-out-everywhere');
        return;
      case 'MemberPhoneVerified':
        await updateMember(tx, keys, event, event.data.memberId, (doc) => ({ phoneVerified: doc.phone === event.data.phone }));
        return;
      case 'ConsentGiven':
        await updateMember(tx, keys, event, event.data.memberId, () => ({ consent: { noticeVersion: event.data.noticeVersion, givenAt: event.data.givenAt } }));
        return;
      case 'MemberClosureRequested': {
        const { memberId, reason, obligations, requestedAt } = event.data;
        const outcome = obligations.length > 0 ? 'refused' : 'closed';
        const doc = await updateMember(tx, keys, event, memberId, () => ({ closure: { requestedAt, reason, outcome, closedAt: null, obligations } }));
        if (!doc) return;
        const at = Date.parse(requestedAt);
        tx.zadd(keys.membersByClosure('requested'), at, memberId);
        tx.zrem(keys.membersByClosure(outcome === 'refused' ? 'closed' : 'refused'), memberId);
        tx.zadd(keys.membersByClosure(outcome), at, memberId);
        return;
      }
      case 'MemberAccountClosed': {
        // RA 10173 sec. 16(e): the member's personal data is masked in every read model (as an
        // auditor sees it), every session ends, and their token version moves on. The event log
        // keeps what the law requires (the privacy notice says so).
        const { memberId, closedAt } = event.data;
        const doc = await updateMember(tx, keys, event, memberId, (current) => ({
          ...maskMemberDoc(current),
          closure: { ...(current.closure ?? { requestedAt: closedAt, reason: '', obligations: [] }), outcome: 'closed', closedAt },
        }));
        if (!doc) return;
        indexMember(tx, keys, doc);
        tx.hincrby(keys.auth(memberId), 'tokenVersion', 1);
        tx.zrem(keys.membersByClosure('refused'), memberId);
        tx.zadd(keys.membersByClosure('closed'), Date.parse(doc.closure!.requestedAt), memberId);
        revokeSessions(tx, event, memberId, 'account-closed');
        return;
      }
      case 'MemberDeleted': {
        const { memberId } = event.data;
        const doc = await tx.getJson<MemberDoc>(keys.member(memberId));
        if (!doc) return;
        // Gone from every list and every session; the event log keeps the history for audit.
        tx.delete(keys.member(memberId));
        tx.delete(keys.auth(memberId));
        tx.zrem(keys.members, memberId);
        tx.zrem(keys.membersByStatus(doc.status), memberId);
        unindexMember(tx, keys, memberId);
        tx.hincrby(keys.memberStats, 'total', -1);
        tx.hincrby(keys.memberStats, doc.status, -1);
        tx.hincrby(keys.memberStats, 'totalBalanceCentavos', -doc.balanceCentavos);
        tx.publish({ rooms: [rooms.member(memberId), rooms.admins], event: 'member.deleted', doc: { id: memberId }, version: event.position });
        revokeSessions(tx, event, memberId, 'deleted');
        return;
      }
      default:
        return;
    }
  },
};

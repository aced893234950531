import { rooms, type MemberDoc } from '@honeylend/contracts';
import type { ProjectedEvent, Projection } from '../projection.js';
import type { ReadModelTransaction } from '../readModelTransaction.js';
import type { ReadModelKeys } from '@honeylend/contracts';

/** Applies a change to a stored member document and announces it to the member and the admins. */
async function updateMember(tx: ReadModelTransaction, keys: ReadModelKeys, event: ProjectedEvent, memberId: string, change: (doc: MemberDoc) => Partial<MemberDoc>) {
  const current = await tx.getJson<MemberDoc>(keys.member(memberId));
  if (!current) return;
  const doc: MemberDoc = { ...current, ...change(current), updatedAt: event.createdAt, version: event.position };
  tx.setJson(keys.member(memberId), doc);
  tx.publish({ rooms: [rooms.member(memberId), rooms.admins], event: 'member.updated', doc, version: event.position });
}

/**
 * rm:member:<id> (profile and wallet balance), rm:auth:<id> (what each request checks),
 * rm:members (listing by join time) and rm:file:<id> (who owns an uploaded document).
 */
export const membersProjection: Projection = {
  name: 'members',
  async apply(event, tx, keys) {
    switch (event.type) {
      case 'MemberRegistered': {
        const { memberId, phone, fullName, email, registeredAt } = event.data;
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
          creditScore: 500,
          status: 'active',
          documents: { idFront: null, idBack: null, selfie: null },
          createdAt: registeredAt,
          updatedAt: registeredAt,
          version: event.position,
        };
        tx.setJson(keys.member(memberId), doc);
        tx.hset(keys.auth(memberId), { role: 'borrower', status: 'active', tokenVersion: 0 });
        tx.zadd(keys.members, Date.parse(registeredAt), memberId);
        tx.publish({ rooms: [rooms.member(memberId), rooms.admins], event: 'member.updated', doc, version: event.position });
        return;
      }
      case 'MemberProfileUpdated':
        return updateMember(tx, keys, event, event.data.memberId, () => event.data.changes);
      case 'DocumentUploaded': {
        const { fileId, memberId, contentType, sizeBytes, uploadedAt } = event.data;
        tx.setJson(keys.file(fileId), { id: fileId, memberId, contentType, sizeBytes, uploadedAt });
        return;
      }
      case 'IdentityDocumentSet':
        return updateMember(tx, keys, event, event.data.memberId, (doc) => ({ documents: { ...doc.documents, [event.data.kind]: event.data.fileId } }));
      case 'LoanDisbursed':
        return updateMember(tx, keys, event, event.data.memberId, (doc) => ({ balanceCentavos: doc.balanceCentavos + event.data.amountCentavos }));
      case 'WithdrawalRequested':
        return updateMember(tx, keys, event, event.data.memberId, (doc) => ({ balanceCentavos: doc.balanceCentavos - event.data.amountCentavos }));
      case 'WithdrawalRejected': {
        // The refund is the amount held, which the withdrawal document knows.
        const held = await tx.getJson<{ amountCentavos: number }>(keys.withdrawal(event.data.withdrawalId));
        if (!held) return;
        return updateMember(tx, keys, event, event.data.memberId, (doc) => ({ balanceCentavos: doc.balanceCentavos + held.amountCentavos }));
      }
      default:
        return;
    }
  },
};

import { maskName, maskPersonalFields, rooms, toApprovalSettingsAnswer, type AdminDoc, type ApprovalDoc, type MemberDoc } from '@honeylend/contracts';
import type { Projection } from '../projection.js';
import type { ReadModelTransaction } from '../readModelTransaction.js';

async function staffName(tx: ReadModelTransaction, keys: Parameters<Projection['apply']>[2], id: string): Promise<string | null> {
  const admin = await tx.getJson<AdminDoc>(keys.admin(id));
  return admin ? admin.fullName || admin.username : null;
}

/**
 * Four eyes (design §11): rm:approval:<id> (ApprovalDoc), rm:approvals and rm:approvals:status:<status>
 * (sorted by request time; the sidebar badge counts the pending set), and rm:settings:approvals.
 * Each change goes to the admins' room as `approval.updated`.
 */
export const approvalsProjection: Projection = {
  name: 'approvals',
  async apply(event, tx, keys) {
    const publish = (doc: ApprovalDoc) => {
      tx.setJson(keys.approval(doc.id), doc);
      tx.publish({ rooms: [rooms.admins], event: 'approval.updated', doc, version: event.position });
    };
    const move = (doc: ApprovalDoc, from: string) => {
      tx.zrem(keys.approvalsByStatus(from), doc.id);
      tx.zadd(keys.approvalsByStatus(doc.status), Date.parse(doc.requestedAt), doc.id);
    };
    switch (event.type) {
      case 'ApprovalRequested': {
        const { approvalId, command, makerId, reason, requestedAt, expiresAt } = event.data;
        const member = await tx.getJson<MemberDoc>(keys.member(command.memberId));
        const doc: ApprovalDoc = {
          id: approvalId,
          command,
          makerId,
          makerName: await staffName(tx, keys, makerId),
          memberName: member?.fullName ?? null,
          reason,
          status: 'pending',
          requestedAt,
          expiresAt,
          decidedById: null,
          decidedByName: null,
          decidedAt: null,
          rejectionReason: null,
          execution: null,
          version: event.position,
        };
        tx.zadd(keys.approvals, Date.parse(requestedAt), approvalId);
        const named = (await tx.getJson<string[]>(keys.approvalsByMember(command.memberId))) ?? [];
        tx.setJson(keys.approvalsByMember(command.memberId), [...named, approvalId]);
        tx.zadd(keys.approvalsByStatus('pending'), Date.parse(requestedAt), approvalId);
        publish(doc);
        return;
      }
      case 'ApprovalGranted':
      case 'ApprovalRejected':
      case 'ApprovalExpired': {
        const current = await tx.getJson<ApprovalDoc>(keys.approval(event.data.approvalId));
        if (!current || current.status !== 'pending') return;
        let doc: ApprovalDoc;
        if (event.type === 'ApprovalGranted') {
          const { checkerId, grantedAt } = event.data;
          doc = {
            ...current,
            status: 'approved',
            decidedById: checkerId,
            decidedByName: await staffName(tx, keys, checkerId),
            decidedAt: grantedAt,
            execution: { outcome: 'running', message: null },
            version: event.position,
          };
        } else if (event.type === 'ApprovalRejected') {
          const { rejectedBy, reason, rejectedAt } = event.data;
          doc = { ...current, status: 'rejected', decidedById: rejectedBy, decidedByName: await staffName(tx, keys, rejectedBy), decidedAt: rejectedAt, rejectionReason: reason, version: event.position };
        } else {
          doc = { ...current, status: 'expired', decidedAt: event.data.expiredAt, version: event.position };
        }
        move(doc, current.status);
        publish(doc);
        return;
      }
      case 'ApprovalExecuted': {
        const current = await tx.getJson<ApprovalDoc>(keys.approval(event.data.approvalId));
        if (!current) return;
        publish({ ...current, execution: { outcome: event.data.outcome, message: event.data.message }, version: event.position });
        return;
      }
      case 'MemberAccountClosed': {
        // The member closed their account (RA 10173): their name and the personal fields of any request naming them are masked here too.
        const ids = (await tx.getJson<string[]>(keys.approvalsByMember(event.data.memberId))) ?? [];
        for (const id of ids) {
          const current = await tx.getJson<ApprovalDoc>(keys.approval(id));
          if (!current) continue;
          publish({ ...current, memberName: current.memberName === null ? null : maskName(current.memberName), command: maskPersonalFields(current.command) as ApprovalDoc['command'], version: event.position });
        }
        return;
      }
      case 'ApprovalSettingsChanged':
        tx.setJson(keys.approvalSettings, event.data.settings);
        tx.publish({ rooms: [rooms.admins], event: 'settings.updated', doc: { approvals: toApprovalSettingsAnswer(event.data.settings) }, version: event.position });
        return;
      default:
        return;
    }
  },
};

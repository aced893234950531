import { rooms, type MemberDoc } from '@honeylend/contracts';
import type { Projection } from '../projection.js';

/** rm:member:<id> (the profile), rm:auth:<id> (what each request checks), rm:members (listing by join time). */
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
      case 'MemberProfileUpdated': {
        const current = await tx.getJson<MemberDoc>(keys.member(event.data.memberId));
        if (!current) return;
        const doc: MemberDoc = { ...current, ...event.data.changes, updatedAt: event.data.updatedAt, version: event.position };
        tx.setJson(keys.member(doc.id), doc);
        tx.publish({ rooms: [rooms.member(doc.id), rooms.admins], event: 'member.updated', doc, version: event.position });
        return;
      }
      default:
        return;
    }
  },
};

import { rooms, type AdminDoc } from '@honeylend/contracts';
import type { Projection } from '../projection.js';
import { revokeSessions } from '../sessions/revokeSessions.js';

/** rm:admin:<id>, rm:auth:<id> for staff, and rm:admins (listing). Password hashes never leave the event log. */
export const adminsProjection: Projection = {
  name: 'admins',
  async apply(event, tx, keys) {
    switch (event.type) {
      case 'AdminAccountCreated': {
        const { adminId, username, fullName, email, phone, role, createdAt } = event.data;
        const doc: AdminDoc = { id: adminId, username, fullName, email, phone, role, createdAt, version: event.position };
        tx.setJson(keys.admin(adminId), doc);
        tx.hset(keys.auth(adminId), { role, status: 'active', tokenVersion: 0 });
        tx.zadd(keys.admins, Date.parse(createdAt), adminId);
        tx.publish({ rooms: [rooms.admins], event: 'admin.updated', doc, version: event.position });
        return;
      }
      case 'AdminAccountUpdated': {
        const current = await tx.getJson<AdminDoc>(keys.admin(event.data.adminId));
        if (!current) return;
        const doc: AdminDoc = { ...current, ...event.data.changes, version: event.position };
        tx.setJson(keys.admin(doc.id), doc);
        tx.publish({ rooms: [rooms.admins], event: 'admin.updated', doc, version: event.position });
        return;
      }
      case 'AdminPasswordChanged':
        tx.hincrby(keys.auth(event.data.adminId), 'tokenVersion', 1);
        revokeSessions(tx, event, event.data.adminId, 'password-changed');
        return;
      case 'AdminAccountDeleted': {
        const { adminId } = event.data;
        tx.delete(keys.admin(adminId));
        tx.delete(keys.auth(adminId));
        tx.zrem(keys.admins, adminId);
        tx.publish({ rooms: [rooms.admins], event: 'admin.deleted', doc: { id: adminId }, version: event.position });
        revokeSessions(tx, event, adminId, 'deleted');
        return;
      }
      default:
        return;
    }
  },
};

import { rooms, type AdminDoc } from '@honeylend/contracts';
import type { Projection } from '../projection.js';

/** rm:admin:<id>, rm:auth:<id> for staff, and rm:admins (listing). Password hashes never leave the event log. */
export const adminsProjection: Projection = {
  name: 'admins',
  async apply(event, tx, keys) {
    if (event.type !== 'AdminAccountCreated') return;
    const { adminId, username, fullName, email, phone, role, createdAt } = event.data;
    const doc: AdminDoc = { id: adminId, username, fullName, email, phone, role, createdAt, version: event.position };
    tx.setJson(keys.admin(adminId), doc);
    tx.hset(keys.auth(adminId), { role, status: 'active', tokenVersion: 0 });
    tx.zadd(keys.admins, Date.parse(createdAt), adminId);
    tx.publish({ rooms: [rooms.admins], event: 'admin.updated', doc, version: event.position });
  },
};

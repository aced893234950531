import { rooms, type AllowedIpDoc } from '@honeylend/contracts';
import type { Projection } from '../projection.js';

/** rm:settings:allowed-ips: the admin IP allow-list, one small document the API reads on every admin request (`[]` once emptied). */
export const allowedIpsProjection: Projection = {
  name: 'allowed-ips',
  async apply(event, tx, keys) {
    if (event.type !== 'AllowedIpAdded' && event.type !== 'AllowedIpRemoved') return;
    const current = (await tx.getJson<AllowedIpDoc[]>(keys.allowedIps)) ?? [];
    const rules =
      event.type === 'AllowedIpAdded'
        ? [
            ...current,
            {
              id: event.data.ruleId,
              ipAddress: event.data.ipAddress,
              description: event.data.description,
              createdAt: event.data.addedAt,
              createdBy: event.metadata.actorId ?? null,
            },
          ]
        : current.filter((rule) => rule.id !== event.data.ruleId);
    // An empty list is written as one: the API reads a missing document as "ask the event log", not as "no list".
    tx.setJson(keys.allowedIps, rules);
    // Only the main admin may read the allow-list (REST answers it to them alone); every API node also
    // reads this entry to disconnect the staff sockets the new list no longer covers.
    tx.publish({ rooms: [rooms.mainAdmin], event: 'settings.updated', doc: { allowedIps: rules }, version: event.position });
  },
};

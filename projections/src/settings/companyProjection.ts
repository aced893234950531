import { rooms } from '@honeylend/contracts';
import type { Projection } from '../projection.js';

/** rm:settings:company: the lender's legal identity as last set (SEC MC 19 s.2019); absent until set. */
export const companyProjection: Projection = {
  name: 'company',
  async apply(event, tx, keys) {
    if (event.type !== 'CompanyDetailsSet') return;
    tx.setJson(keys.company, event.data.details);
    tx.publish({ rooms: [rooms.admins], event: 'settings.updated', doc: { company: event.data.details }, version: event.position });
  },
};

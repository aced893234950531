import { rooms } from '@honeylend/contracts';
import type { Projection } from '../projection.js';

/** rm:settings:loan-statuses: the admin-defined loan statuses, in the order they were added. */
export const customLoanStatusesProjection: Projection = {
  name: 'loan-statuses',
  async apply(event, tx, keys) {
    if (event.type !== 'LoanStatusDefined' && event.type !== 'LoanStatusRemoved') return;
    const current = (await tx.getJson<string[]>(keys.customLoanStatuses)) ?? [];
    const statuses = event.type === 'LoanStatusDefined' ? [...current, event.data.status] : current.filter((status) => status !== event.data.status);
    if (statuses.length === 0) tx.delete(keys.customLoanStatuses);
    else tx.setJson(keys.customLoanStatuses, statuses);
    tx.publish({ rooms: [rooms.admins], event: 'settings.updated', doc: { customLoanStatuses: statuses }, version: event.position });
  },
};

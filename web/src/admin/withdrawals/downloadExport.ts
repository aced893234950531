import { formatCalendarDate, manilaDateOf } from '@honeylend/contracts';
import { downloadFile, fileNameOf } from '../../shared/downloadFile';
import { listPath } from '../../console/adminApi';

/** The file name the server gives (Content-Disposition), or one dated by the Manila date, as the server names it. */
export function exportFileName(disposition: string | null, today = new Date()): string {
  return fileNameOf(disposition, `withdrawals-${formatCalendarDate(manilaDateOf(today.toISOString()))}.csv`);
}

/**
 * 'Export report': the CSV of the list as filtered now (status and search, every page), fetched
 * with the admin's token and handed to the browser as a download.
 */
export function downloadWithdrawalsCsv(filter: { search: string; status: string }): Promise<string> {
  return downloadFile(listPath('/api/admin/withdrawals/export', { search: filter.search.trim(), status: filter.status }), 'text/csv', exportFileName(null));
}

import { downloadFile, fileNameOf } from '../../shared/downloadFile';
import { listPath } from '../adminApi';

/** The file name the server gives (Content-Disposition), or a dated one. */
export function exportFileName(disposition: string | null, today = new Date()): string {
  return fileNameOf(disposition, `withdrawals-${today.toISOString().slice(0, 10)}.csv`);
}

/**
 * 'Export Report': the CSV of the list as filtered now (status and search, every page), fetched
 * with the admin's token and handed to the browser as a download.
 */
export function downloadWithdrawalsCsv(filter: { search: string; status: string }): Promise<string> {
  return downloadFile(listPath('/api/admin/withdrawals/export', { search: filter.search.trim(), status: filter.status }), 'text/csv', exportFileName(null));
}

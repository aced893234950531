import { centavosToPesos, type MemberDoc, type WithdrawalDoc } from '@honeylend/contracts';

/**
 * A spreadsheet program runs a cell that starts with = + - @ (or a tab or carriage return) as a
 * formula, so a member named "=HYPERLINK(...)" could attack whoever opens the report (CSV
 * injection). Such cells get a leading apostrophe; every cell is quoted, quotes doubled.
 */
export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

export const WITHDRAWAL_CSV_COLUMNS = [
  'Withdrawal number',
  'Member',
  'Phone',
  'Email',
  'Amount (PHP)',
  'Bank',
  'Account number',
  'Status',
  'Reason',
  'Requested at',
  'Processed at',
] as const;

/** The spec's 'Export Report': one row per withdrawal, UTF-8 with a byte-order mark so spreadsheets read ₱ and ñ right. */
export function withdrawalsCsv(rows: { withdrawal: WithdrawalDoc; member: MemberDoc | null }[]): string {
  const lines = [WITHDRAWAL_CSV_COLUMNS.map(csvCell).join(',')];
  for (const { withdrawal, member } of rows) {
    lines.push(
      [
        withdrawal.withdrawalNumber,
        member?.fullName ?? '',
        member?.phone ?? '',
        member?.email ?? '',
        centavosToPesos(withdrawal.amountCentavos).toFixed(2),
        withdrawal.bankName,
        withdrawal.bankAccountNumber,
        withdrawal.status,
        withdrawal.reason,
        withdrawal.createdAt,
        withdrawal.processedAt,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

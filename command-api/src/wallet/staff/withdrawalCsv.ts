import { centavosToPesos, formatCalendarDate, manilaDateOf, type MemberDoc, type WithdrawalDoc } from '@honeylend/contracts';

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

/**
 * An identifier made of digits (an account number, a phone): a spreadsheet reads "09175550101"
 * as the number 9175550101 and drops the leading zero, even quoted. Written as the formula
 * ="09175550101" it stays text, shown without an apostrophe. Only digits (and a leading +) take
 * this form, so nothing a member typed can become a formula.
 */
export function csvIdentifierCell(value: string | null): string {
  if (value !== null && /^\+?\d+$/.test(value)) return `"=""${value}"""`;
  return csvCell(value);
}

/** Manila is UTC+8 all year (no daylight saving since 1978). */
const MANILA_OFFSET_MS = 8 * 60 * 60 * 1000;

/** An instant as Manila wall-clock time with its offset, as the console shows it: 2026-11-22T16:00:00+08:00. */
export function manilaTimestamp(isoInstant: string | null): string | null {
  if (isoInstant === null) return null;
  const shifted = new Date(Date.parse(isoInstant) + MANILA_OFFSET_MS).toISOString();
  return `${shifted.slice(0, 19)}+08:00`;
}

/** The report's file name, by the Manila date (at 07:00 in Manila it is still the day before in UTC). */
export function withdrawalsCsvFileName(now: Date): string {
  return `withdrawals-${formatCalendarDate(manilaDateOf(now.toISOString()))}.csv`;
}

export const WITHDRAWAL_CSV_COLUMNS = ['Withdrawal number', 'Member', 'Phone', 'Email', 'Amount (PHP)', 'Bank', 'Account number', 'Status', 'Reason', 'Requested at (Manila)', 'Processed at (Manila)'] as const;

/** The spec's 'Export Report': one row per withdrawal, UTF-8 with a byte-order mark so spreadsheets read ₱ and ñ right. */
export function withdrawalsCsv(rows: { withdrawal: WithdrawalDoc; member: MemberDoc | null }[]): string {
  const lines = [WITHDRAWAL_CSV_COLUMNS.map(csvCell).join(',')];
  for (const { withdrawal, member } of rows) {
    lines.push(
      [
        csvCell(withdrawal.withdrawalNumber),
        csvCell(member?.fullName ?? ''),
        csvIdentifierCell(member?.phone ?? ''),
        csvCell(member?.email ?? ''),
        csvCell(centavosToPesos(withdrawal.amountCentavos).toFixed(2)),
        csvCell(withdrawal.bankName),
        csvIdentifierCell(withdrawal.bankAccountNumber),
        csvCell(withdrawal.status),
        csvCell(withdrawal.reason),
        csvCell(manilaTimestamp(withdrawal.createdAt)),
        csvCell(manilaTimestamp(withdrawal.processedAt)),
      ].join(','),
    );
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/**
 * Due dates are Asia/Manila calendar dates: borrowers and the lender are in the Philippines, so a
 * loan created at 01:00 on 1 February in Manila is a February loan on the borrower's contract even
 * though it is still 31 January in UTC. Manila is UTC+8 all year (no daylight saving since 1978),
 * so a fixed offset is exact and needs no time-zone database, which keeps this safe in browsers.
 */
const MANILA_OFFSET_MILLISECONDS = 8 * 60 * 60 * 1000;

/** A calendar date; `month` is 1–12. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

// A timestamp without a zone would be read in the runtime's local zone, giving different dates on different machines.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** The Manila calendar date of an ISO instant (`2026-01-31T16:30:00Z` is 1 February in Manila). */
export function manilaDateOf(isoInstant: string): CalendarDate {
  const milliseconds = ISO_INSTANT.test(isoInstant) ? Date.parse(isoInstant) : Number.NaN;
  if (Number.isNaN(milliseconds)) throw new RangeError(`not an ISO date or instant with a time zone: ${isoInstant}`);
  const shifted = new Date(milliseconds + MANILA_OFFSET_MILLISECONDS);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The same day `months` later, or that month's last day when it is shorter. Always counted from
 * the original date, so 31 January runs 31 March, 30 April, 31 May — never drifting to the 30th.
 */
export function addCalendarMonths(date: CalendarDate, months: number): CalendarDate {
  const monthIndex = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(monthIndex / 12);
  const month = (monthIndex % 12) + 1;
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) };
}

/** YYYY-MM-DD */
export function formatCalendarDate({ year, month, day }: CalendarDate): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

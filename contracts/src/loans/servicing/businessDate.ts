import { formatCalendarDate, manilaDateOf } from '../manilaCalendar.js';

/**
 * Business dates are Asia/Manila calendar dates written YYYY-MM-DD. They compare as text, and a
 * day is always 24 hours in Manila (UTC+8 all year), so plain UTC arithmetic on them is exact.
 */
export type BusinessDate = string;

export const BUSINESS_DATE = /^\d{4}-\d{2}-\d{2}$/;

const MS_PER_DAY = 86_400_000;

function dayNumber(date: BusinessDate): number {
  if (!BUSINESS_DATE.test(date)) throw new RangeError(`not a YYYY-MM-DD date: ${date}`);
  const ms = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(ms)) throw new RangeError(`not a calendar date: ${date}`);
  return Math.round(ms / MS_PER_DAY);
}

function fromDayNumber(day: number): BusinessDate {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

export function addDays(date: BusinessDate, days: number): BusinessDate {
  return fromDayNumber(dayNumber(date) + days);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: BusinessDate, to: BusinessDate): number {
  return dayNumber(to) - dayNumber(from);
}

export const laterDate = (a: BusinessDate, b: BusinessDate): BusinessDate => (a >= b ? a : b);
export const earlierDate = (a: BusinessDate, b: BusinessDate): BusinessDate => (a <= b ? a : b);

/** The Manila business date of an ISO instant. */
export function businessDateOf(isoInstant: string): BusinessDate {
  return formatCalendarDate(manilaDateOf(isoInstant));
}

/** The instant a Manila business date begins (00:00 +08:00), as ISO UTC. */
export function startOfBusinessDate(date: BusinessDate): string {
  return new Date(dayNumber(date) * MS_PER_DAY - 8 * 3_600_000).toISOString();
}

/** True when `date` is a real calendar date in YYYY-MM-DD form (2026-02-30 is not). */
export function isBusinessDate(date: string): boolean {
  if (!BUSINESS_DATE.test(date)) return false;
  const ms = Date.parse(`${date}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === date;
}

import { describe, expect, it } from 'vitest';
import { addCalendarMonths, daysInMonth, formatCalendarDate, manilaDateOf } from './manilaCalendar.js';

describe('Asia/Manila calendar', () => {
  it('reads the Manila date of an instant, eight hours ahead of UTC', () => {
    expect(manilaDateOf('2026-01-31T15:59:59Z')).toEqual({ year: 2026, month: 1, day: 31 });
    expect(manilaDateOf('2026-01-31T16:00:00Z')).toEqual({ year: 2026, month: 2, day: 1 });
    expect(manilaDateOf('2026-02-01T00:30:00+08:00')).toEqual({ year: 2026, month: 2, day: 1 });
    expect(manilaDateOf('2026-12-31T23:00:00.000Z')).toEqual({ year: 2027, month: 1, day: 1 });
    expect(manilaDateOf('2026-07-04')).toEqual({ year: 2026, month: 7, day: 4 });
  });

  it('refuses timestamps whose meaning depends on the machine it runs on, and nonsense', () => {
    expect(() => manilaDateOf('2026-01-31T10:00:00')).toThrow(RangeError);
    expect(() => manilaDateOf('yesterday')).toThrow(RangeError);
    expect(() => manilaDateOf('2026-13-45T00:00:00Z')).toThrow(RangeError);
  });

  it('knows month lengths, including leap Februaries', () => {
    expect([1, 2, 4, 12].map((month) => daysInMonth(2026, month))).toEqual([31, 28, 30, 31]);
    expect(daysInMonth(2028, 2)).toBe(29);
    expect(daysInMonth(2100, 2)).toBe(28);
  });

  it('adds months from the original day, clamping to shorter months without drifting', () => {
    const january31 = { year: 2026, month: 1, day: 31 };
    expect([1, 2, 3, 4, 12, 13].map((months) => formatCalendarDate(addCalendarMonths(january31, months)))).toEqual(['2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31', '2027-01-31', '2027-02-28']);
    expect(formatCalendarDate(addCalendarMonths({ year: 2027, month: 12, day: 31 }, 2))).toBe('2028-02-29');
    expect(formatCalendarDate(addCalendarMonths({ year: 2026, month: 11, day: 15 }, 2))).toBe('2027-01-15');
  });
});

import { describe, expect, it } from 'vitest';
import { moneyRequestIn } from '../../platform/text/moneyRequests.js';
import { reminderText } from './reminderText.js';
import { isReminderHour } from './sendReminders.js';

describe('repayment reminders', () => {
  it("name the amount, the due date and the product's own ways to pay, and pass the no-money-request filter staff texts must pass", () => {
    for (const reason of ['before_due', 'due_today', 'overdue'] as const) {
      const { title, message } = reminderText(reason, 'LN-2026-000123', 3, 1_300_000, '2026-05-15');
      expect(message).toContain('₱13,000.00');
      expect(message).toContain('15 May 2026');
      expect(message).toContain('LN-2026-000123');
      expect(message).toContain('Honeylend app');
      expect(moneyRequestIn(`${title}. ${message}`), reason).toBeNull();
    }
  });

  it('go out only between 08:00 and 20:00 Manila time', () => {
    expect(isReminderHour(new Date('2026-05-12T23:59:00Z'))).toBe(false); // 07:59 Manila
    expect(isReminderHour(new Date('2026-05-13T00:00:00Z'))).toBe(true); // 08:00
    expect(isReminderHour(new Date('2026-05-13T11:59:00Z'))).toBe(true); // 19:59
    expect(isReminderHour(new Date('2026-05-13T12:00:00Z'))).toBe(false); // 20:00
  });
});

import { describe, expect, it } from 'vitest';
import { maskPhone, normalisePhone } from './phone.js';

describe('normalisePhone', () => {
  it('treats 09171234567, 639171234567 and +639171234567 as one number', () => {
    for (const input of ['09171234567', '639171234567', '+639171234567', '9171234567', '+63 917 123 4567', '0917-123-4567']) {
      expect(normalisePhone(input)).toBe('+639171234567');
    }
  });

  it('keeps a full international number from abroad', () => {
    expect(normalisePhone('+6591234567')).toBe('+6591234567');
  });

  it('refuses what is not a phone number', () => {
    for (const input of ['', 'abcdefghijk', '0817123456', '12345', '+63123', '+6391712345678']) {
      expect(normalisePhone(input)).toBeNull();
    }
  });

  it('masks all but the last four digits', () => {
    expect(maskPhone('+639171234567')).toBe('+63•••••4567');
  });
});

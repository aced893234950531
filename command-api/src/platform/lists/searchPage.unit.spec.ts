import { describe, expect, it } from 'vitest';
import { searchTermsOf } from './searchPage.js';

describe('admin search terms', () => {
  it('splits words (all must match) and recognises a phone number in any format', () => {
    expect(searchTermsOf('Maria  SANTOS')).toEqual({ phone: '', words: ['maria', 'santos'] });
    for (const phone of ['09171234567', '0917 123 4567', '+63 917-123-4567', '639171234567']) expect(searchTermsOf(phone).phone, phone).toBe('+639171234567');
    expect(searchTermsOf('LN-2026-000123').words).toEqual(['ln-2026-000123']);
  });
});

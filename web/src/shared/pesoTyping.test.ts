import { describe, expect, it } from 'vitest';
import { bareAmount, caretAfterGrouping, groupedAmount } from './pesoTyping';

describe('peso amounts typed with their separators (issue 22, item 19)', () => {
  it('keeps the bare amount: digits, one point, at most two decimals; whole pesos only where asked', () => {
    expect(bareAmount('₱1,250,000.505', { decimals: true })).toBe('1250000.50');
    expect(bareAmount('1.2.3', { decimals: true })).toBe('1.23');
    expect(bareAmount('.5', { decimals: true })).toBe('0.5');
    expect(bareAmount('80,000.75', { decimals: false })).toBe('8000075');
    expect(bareAmount('abc', { decimals: true })).toBe('');
  });

  it('groups whole pesos by three and leaves the decimals as typed', () => {
    expect(groupedAmount('1250000.5')).toBe('1,250,000.5');
    expect(groupedAmount('1000.')).toBe('1,000.');
    expect(groupedAmount('999')).toBe('999');
    expect(groupedAmount('')).toBe('');
  });

  it('puts the caret after the digit it followed', () => {
    // Typing the 4th digit at the end: "1000|" → "1,000|".
    expect(caretAfterGrouping('1000', 4, '1,000')).toBe(5);
    // A digit in the middle: "1,5|00,000" + 9 → "15,9|00,000".
    expect(caretAfterGrouping('1,5900,000', 4, '15,900,000')).toBe(4);
    // Backspace over a separator leaves the amount alone; the caret stays where it went.
    expect(caretAfterGrouping('1000', 1, '1,000')).toBe(1);
    expect(caretAfterGrouping('12,3456', 0, '123,456')).toBe(0);
  });
});

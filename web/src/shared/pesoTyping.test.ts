import { describe, expect, it } from 'vitest';
import { bareAmount, caretAfterGrouping, groupedAmount } from './pesoTyping';

describe('peso amounts typed with their separators (issue 22, item 19)', () => {
  it('keeps the bare amount: digits, one point, at most two decimals', () => {
    expect(bareAmount('₱1,250,000.505')).toBe('1250000.50');
    expect(bareAmount('1.2.3')).toBe('1.23');
    expect(bareAmount('.5')).toBe('0.5');
    expect(bareAmount('abc')).toBe('');
  });

  it('reads the point as the decimal point in every field: "100,000.00" is a hundred thousand pesos, not ten million', () => {
    expect(bareAmount('100,000.00')).toBe('100000.00');
    expect(bareAmount('150000.50')).toBe('150000.50');
    expect(bareAmount('₱80,000.75')).toBe('80000.75');
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

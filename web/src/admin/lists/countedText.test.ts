import { describe, expect, it } from 'vitest';
import { countedText } from './pagedList';

describe('list totals (issue 22, item 19)', () => {
  it('says "1 member", not "1 members"', () => {
    expect(countedText(1, 'members')).toBe('1 member');
    expect(countedText(1, 'requests')).toBe('1 request');
    expect(countedText(0, 'loans')).toBe('0 loans');
    expect(countedText(42, 'members')).toBe('42 members');
  });
});

import { describe, expect, it } from 'vitest';
import { ReplayWindow } from './replayWindow.js';

describe('ReplayWindow', () => {
  it('holds every entry inside the window until it has seen as many as it is long', () => {
    const window = new ReplayWindow(3);
    window.add('10-0');
    window.add('11-0');
    expect(window.oldest()).toBeNull();
    expect(window.isBeyond('0-1')).toBe(false);
    window.add('12-0');
    expect(window.oldest()).toBe('10-0');
  });

  it('slides with each entry: a resume older than the oldest of the last `size` entries is beyond it', () => {
    const window = new ReplayWindow(3);
    for (const id of ['10-0', '11-0', '12-0', '13-0', '13-1']) window.add(id);
    expect(window.oldest()).toBe('12-0');
    expect(window.isBeyond('11-9')).toBe(true);
    expect(window.isBeyond('12-0')).toBe(false);
    expect(window.isBeyond('13-0')).toBe(false);
    // Stream ids compare by number, not as text.
    expect(window.isBeyond('9-0')).toBe(true);
  });
});

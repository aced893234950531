import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOAST_REMOVE_DELAY_MS, toast, useToasts } from './toastStore';

afterEach(() => {
  vi.useRealTimers();
});

describe('toast queue (spec §9)', () => {
  it('keeps one toast at a time: the newest replaces the one shown', () => {
    toast({ title: 'Logged out', description: 'You have been logged out successfully' });
    toast({ title: 'Login failed', description: 'Invalid phone number or password', variant: 'destructive' });

    const { toasts } = useToasts.getState();
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toMatchObject({ title: 'Login failed', variant: 'destructive', open: true, durationMs: 5000 });
  });

  it('closes a dismissed toast and removes it after the removal delay', () => {
    vi.useFakeTimers();
    const id = toast({ title: 'Logged out' });

    useToasts.getState().dismiss(id);
    expect(useToasts.getState().toasts).toMatchObject([{ id, open: false }]);

    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1);
    expect(useToasts.getState().toasts).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(useToasts.getState().toasts).toEqual([]);
  });

  it('dismisses every toast when no id is given', () => {
    toast({ title: 'Logged out' });
    useToasts.getState().dismiss();
    expect(useToasts.getState().toasts.every((shown) => !shown.open)).toBe(true);
  });
});

import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from './Toaster';
import { toast, useToasts } from './toastStore';

afterEach(() => {
  vi.useRealTimers();
});

function openToasts() {
  return useToasts.getState().toasts.filter((shown) => shown.open);
}

describe('toaster', () => {
  it('shows only the newest of two toasts', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Logged out' });
      toast({ title: 'Login successful', description: 'Welcome back!' });
    });

    expect(screen.getAllByRole('status')).toHaveLength(1);
    expect(screen.getByRole('status').textContent).toBe('Login successfulWelcome back!');
    expect(screen.queryByText('Logged out')).toBeNull();
  });

  it('announces the destructive variant as an alert', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Account Suspended', description: 'Your account has been suspended. Please contact support.', variant: 'destructive' });
    });
    expect(screen.getByRole('alert').textContent).toContain('Account Suspended');
  });

  it('closes a toast by itself after 5 seconds', () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => {
      toast({ title: 'Logged out' });
    });

    act(() => {
      vi.advanceTimersByTime(4999);
    });
    expect(openToasts()).toHaveLength(1);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(openToasts()).toHaveLength(0);
  });

  it('closes from its close button', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Logged out' });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Close notification' }));
    expect(openToasts()).toHaveLength(0);
  });

  it('is dismissed by a swipe longer than 50 px and stays after a shorter one', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Logged out' });
    });
    const shown = screen.getByRole('status');

    fireEvent.pointerDown(shown, { clientX: 100, pointerId: 1 });
    fireEvent.pointerMove(shown, { clientX: 140, pointerId: 1 });
    fireEvent.pointerUp(shown, { clientX: 150, pointerId: 1 });
    expect(openToasts()).toHaveLength(1);

    fireEvent.pointerDown(shown, { clientX: 100, pointerId: 1 });
    fireEvent.pointerUp(shown, { clientX: 151, pointerId: 1 });
    expect(openToasts()).toHaveLength(0);
  });
});

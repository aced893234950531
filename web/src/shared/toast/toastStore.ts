import { create } from 'zustand';

/** Spec §9 toast constants. */
export const TOAST_LIMIT = 1;
export const TOAST_DISPLAY_MS = 5000;
/** A dismissed toast stays in the list (closed) this long so its exit can play out before it is removed. */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  durationMs?: number;
}

export interface Toast {
  id: number;
  title: string;
  description?: string;
  variant: ToastVariant;
  durationMs: number;
  open: boolean;
}

interface ToastState {
  toasts: Toast[];
  show: (input: ToastInput) => number;
  dismiss: (id?: number) => void;
  remove: (id: number) => void;
}

let nextToastId = 1;
const removalTimers = new Map<number, ReturnType<typeof setTimeout>>();

function scheduleRemoval(id: number): void {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      useToasts.getState().remove(id);
    }, TOAST_REMOVE_DELAY_MS),
  );
}

export const useToasts = create<ToastState>()((set, get) => ({
  toasts: [],

  show(input) {
    const id = nextToastId++;
    const toast: Toast = {
      id,
      title: input.title,
      description: input.description,
      variant: input.variant ?? 'default',
      durationMs: input.durationMs ?? TOAST_DISPLAY_MS,
      open: true,
    };
    // The newest toast wins: older ones beyond the limit are dropped at once, not queued behind it.
    set({ toasts: [toast, ...get().toasts].slice(0, TOAST_LIMIT) });
    return id;
  },

  dismiss(id) {
    const dismissed = get().toasts.filter((toast) => (id === undefined || toast.id === id) && toast.open);
    if (dismissed.length === 0) return;
    for (const toast of dismissed) scheduleRemoval(toast.id);
    set({ toasts: get().toasts.map((toast) => (dismissed.includes(toast) ? { ...toast, open: false } : toast)) });
  },

  remove(id) {
    const timer = removalTimers.get(id);
    if (timer) clearTimeout(timer);
    removalTimers.delete(id);
    set({ toasts: get().toasts.filter((toast) => toast.id !== id) });
  },
}));

/** Shows a toast from anywhere (stores, event handlers); returns its id for an early dismiss. */
export function toast(input: ToastInput): number {
  return useToasts.getState().show(input);
}

import { create } from 'zustand';
import { apiRequest } from '../../shared/api';

interface LoanTermsState {
  /** The flat monthly rate new applications get, as the server is configured (GET /api/loans/terms); null until known. */
  monthlyRateBps: number | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** Asks the server once (again after a failure). */
  load(): void;
}

/** The rate the estimate uses: the server's configured one, never a constant of the app (issue 17, item 5). */
export const useLoanTerms = create<LoanTermsState>()((set, get) => ({
  monthlyRateBps: null,
  status: 'idle',
  load() {
    if (get().status === 'loading' || get().status === 'ready') return;
    set({ status: 'loading' });
    apiRequest<{ monthlyRateBps: number }>('/api/loans/terms').then(
      (terms) => set({ monthlyRateBps: terms.monthlyRateBps, status: 'ready' }),
      () => set({ status: 'error' }),
    );
  },
}));

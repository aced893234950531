import { create } from 'zustand';
import { isCompanySet, type CompanyAnswer, type CompanyDetails } from '@honeylend/contracts';
import { apiRequest } from './api';

/**
 * The lender's legal identity as the operator published it (GET /api/company; SEC MC 19 s.2019).
 * Design §7: while it is not set — or cannot be read — every screen shows none of it.
 */
interface CompanyState {
  company: CompanyDetails | null;
  status: 'idle' | 'loading' | 'ready';
  load(): void;
  clear(): void;
}

export const useCompany = create<CompanyState>((set, get) => ({
  company: null,
  status: 'idle',
  load() {
    if (get().status !== 'idle') return;
    set({ status: 'loading' });
    apiRequest<CompanyAnswer>('/api/company').then(
      (answer) => set({ company: isCompanySet(answer) ? answer : null, status: 'ready' }),
      () => set({ company: null, status: 'ready' }),
    );
  },
  clear() {
    set({ company: null, status: 'idle' });
  },
}));

import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { useSession } from '../borrower/stores/session';
import { useToasts } from '../shared/toast/toastStore';

afterEach(() => {
  cleanup();
  localStorage.clear();
  useSession.setState({ user: null, loading: true });
  useToasts.setState({ toasts: [] });
});

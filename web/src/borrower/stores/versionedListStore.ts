import { create } from 'zustand';
import { apiRequest } from '../../shared/api';
import { settleFetched, upsertNewer, type Versioned } from '../../shared/versionRule';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface VersionedListState<T> {
  /** Newest first. */
  items: T[];
  status: LoadStatus;
  /** Why the last fetch failed (spec §8 message), while nothing could be shown. */
  error: string | null;
  /** GET the list; pushes that arrive meanwhile are applied on top of the answer. */
  fetch(): Promise<void>;
  /** A pushed (or just answered) document, applied only when newer than the one held. */
  apply(doc: T): void;
  /** Forgets everything (sign-out, another account). */
  clear(): void;
}

type Item = Versioned & { id: string; createdAt: string };

const newestFirst = (a: Item, b: Item) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0);

/**
 * A member's list (loans, withdrawals, notifications) filled over REST and kept current by pushes.
 * While a fetch is on its way, pushes are shown at once and also remembered, so the answer (which
 * may have been read before them) cannot roll them back; a later fetch supersedes an earlier one.
 */
export function createVersionedListStore<T extends Item>(path: string) {
  let fetchSeq = 0;
  let pushedDuringFetch: T[] | null = null;

  return create<VersionedListState<T>>()((set, get) => ({
    items: [],
    status: 'idle',
    error: null,

    async fetch() {
      const seq = ++fetchSeq;
      pushedDuringFetch = [];
      set({ status: get().status === 'ready' ? 'ready' : 'loading', error: null });
      try {
        const answer = await apiRequest<T[] | null>(path);
        if (seq !== fetchSeq) return;
        const items = settleFetched(answer ?? [], pushedDuringFetch).sort(newestFirst);
        pushedDuringFetch = null;
        set({ items, status: 'ready', error: null });
      } catch (error) {
        if (seq !== fetchSeq) return;
        pushedDuringFetch = null;
        // What was already shown stays; the failure is only reported when there is nothing to show.
        set({ status: get().status === 'ready' ? 'ready' : 'error', error: error instanceof Error ? error.message : String(error) });
      }
    },

    apply(doc) {
      pushedDuringFetch?.push(doc);
      const held = get().items;
      const items = upsertNewer(held, doc);
      if (items !== held) set({ items: items.sort(newestFirst) });
    },

    clear() {
      fetchSeq++;
      pushedDuringFetch = null;
      set({ items: [], status: 'idle', error: null });
    },
  }));
}

import type { ChainedEvent, EventStore, RecordedEvent } from '../port.js';
import { GENESIS_HASH, eventHash } from './eventHash.js';

export interface ChainReadOptions {
  /** Exclusive, as in readAll. */
  from: number;
  /** Inclusive; events after it are not read. Default: to the end. */
  to?: number;
  /**
   * Where the chain is computed (integrity.hashChain 'computed'): the hash at `from` (64 zeros at
   * the start), which the first event links to. Ignored for a stored chain.
   */
  prevHash?: string;
  pageSize?: number;
  signal?: AbortSignal;
}

const DEFAULT_PAGE = 5_000;

/**
 * The log after `from` in pages, each event with its link: as stored (SQL adapters; not checked
 * here) or computed from `prevHash` (EventStoreDB, whose $all range is digested this way). The
 * next page is read while the caller works on this one.
 */
export async function* chainPages(store: EventStore, { from, to = Number.MAX_SAFE_INTEGER, prevHash = GENESIS_HASH, pageSize = DEFAULT_PAGE, signal }: ChainReadOptions): AsyncGenerator<ChainedEvent[]> {
  const stored = store.integrity.hashChain === 'stored';
  if (stored && !store.readChain) throw new TypeError(`the ${store.kind} store says its chain is stored but cannot read it`);
  const read = (after: number): Promise<Array<ChainedEvent | RecordedEvent>> => {
    const reading = stored ? store.readChain!({ from: after, limit: pageSize }) : store.readAll({ from: after, limit: pageSize });
    reading.catch(() => undefined); // awaited below; one left behind when the caller stops must not be an unhandled rejection
    return reading;
  };
  let link = prevHash;
  let next = read(from);
  for (;;) {
    if (signal?.aborted) return;
    const page = await next;
    const inRange = page.filter((event) => event.position <= to);
    if (inRange.length === 0) return;
    const last = inRange[inRange.length - 1].position;
    const more = inRange.length === page.length && page.length === pageSize && last < to;
    if (more) next = read(last);
    if (stored) {
      yield inRange as ChainedEvent[];
    } else {
      yield inRange.map((event) => {
        const hash = eventHash(event.position, link, event);
        const chained = { ...event, prevHash: link, hash };
        link = hash;
        return chained;
      });
    }
    if (!more) return;
  }
}

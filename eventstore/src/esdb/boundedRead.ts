import { EventStoreUnavailable } from '../port.js';
import type { EsdbRead } from './esdbClient.js';
import { translateEsdbError } from './esdbErrors.js';

export interface BoundedReadOptions {
  /** Longest silence (nothing received) before the read is given up. */
  idleTimeoutMs: number;
  /** Aborting gives the read up at once; it then fails with the signal's reason. */
  signal?: AbortSignal;
  /** What is being read, for the error: "reading stream member-…". */
  what: string;
}

/**
 * Collects everything a read yields. Client 6.2.1 gives reads no deadline (it sends
 * `deadline: Infinity` whatever the caller asks), so against a stalled server, or a host that
 * swallows packets, a read would wait forever. Here a read that receives nothing for
 * `idleTimeoutMs` is cancelled and fails with EventStoreUnavailable; a long read that keeps
 * receiving is never cut short. A given-up read is cancelled on the server too, not just no
 * longer listened to. Errors arrive translated (translateEsdbError).
 */
export function collectRead<T>(read: EsdbRead, { idleTimeoutMs, signal, what }: BoundedReadOptions): Promise<T[]> {
  return new Promise<T[]>((resolve, reject) => {
    const items: T[] = [];
    let timer: NodeJS.Timeout | undefined;
    const detach = () => {
      clearTimeout(timer);
      read.off('data', onData).off('end', onEnd).off('error', onError);
      signal?.removeEventListener('abort', onAbort);
      // The client may still report the cancelled call's end as an error: never an unhandled one.
      read.on('error', () => undefined);
    };
    const giveUp = (error: unknown) => {
      detach();
      read.cancel().catch(() => undefined);
      read.destroy();
      reject(error);
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => giveUp(new EventStoreUnavailable(`EventStoreDB sent nothing for ${idleTimeoutMs} ms while ${what}`)), idleTimeoutMs);
    };
    const onData = (item: T) => {
      items.push(item);
      arm();
    };
    const onEnd = () => {
      detach();
      resolve(items);
    };
    const onError = (error: unknown) => {
      detach();
      reject(translateEsdbError(error));
    };
    const onAbort = () => giveUp(signal?.reason);
    if (signal?.aborted) return giveUp(signal.reason);
    read.on('data', onData).on('end', onEnd).on('error', onError);
    signal?.addEventListener('abort', onAbort);
    arm();
  });
}

import type { Readable } from 'node:stream';

const HIGH_WATER = 256;
const LOW_WATER = 64;

export type SourceOutcome = 'ended' | 'aborted';

/**
 * Yields a readable's items until it ends, fails (the error is thrown) or the signal aborts. It
 * listens for events rather than using the readable's own async iterator because an abort must
 * end the loop at once even while no item is coming, without leaving a pending read to reject
 * later. The caller learns how it stopped from `outcome.value` and disposes of the readable.
 */
export async function* readUntilAborted<T>(source: Readable, signal: AbortSignal | undefined, outcome: { value: SourceOutcome }): AsyncGenerator<T> {
  const buffered: T[] = [];
  let failure: { error: unknown } | null = null;
  let ended = false;
  let notify: (() => void) | null = null;
  const wake = () => {
    notify?.();
    notify = null;
  };
  const onData = (item: T) => {
    buffered.push(item);
    if (buffered.length >= HIGH_WATER) source.pause();
    wake();
  };
  const onError = (error: unknown) => {
    failure = { error };
    wake();
  };
  const onEnd = () => {
    ended = true;
    wake();
  };
  source.on('data', onData);
  source.on('error', onError);
  source.on('end', onEnd);
  source.on('close', onEnd);
  signal?.addEventListener('abort', wake);
  try {
    for (;;) {
      if (signal?.aborted) {
        outcome.value = 'aborted';
        return;
      }
      const item = buffered.shift();
      if (item !== undefined) {
        if (buffered.length <= LOW_WATER && source.isPaused()) source.resume();
        yield item;
        continue;
      }
      if (failure) throw (failure as { error: unknown }).error;
      if (ended) {
        outcome.value = 'ended';
        return;
      }
      await new Promise<void>((resolve) => {
        notify = resolve;
      });
    }
  } finally {
    signal?.removeEventListener('abort', wake);
    source.off('data', onData);
    source.off('end', onEnd);
    source.off('close', onEnd);
    source.off('error', onError);
  }
}

import type { ChangeEntry } from '@honeylend/contracts';

/** One entry of the Redis stream rm:changes, as the projections wrote it. */
export interface FeedEntry extends ChangeEntry {
  streamId: string;
  /** The request whose event made this change (absent for changes no request made). */
  requestId?: string;
}

export function parseFeedEntry(streamId: string, fields: string[]): FeedEntry | null {
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) map.set(fields[i], fields[i + 1]);
  try {
    return {
      streamId,
      event: map.get('event') as ChangeEntry['event'],
      rooms: JSON.parse(map.get('rooms') ?? '[]') as string[],
      version: Number(map.get('version')),
      doc: JSON.parse(map.get('doc') ?? 'null') as unknown,
      ...(map.has('requestId') ? { requestId: map.get('requestId') } : {}),
    };
  } catch {
    return null;
  }
}

/** Redis stream ids ("<ms>-<seq>") in order. */
export function compareStreamIds(a: string, b: string): number {
  const [aMs, aSeq] = a.split('-').map(BigInt) as [bigint, bigint];
  const [bMs, bSeq] = b.split('-').map(BigInt) as [bigint, bigint];
  if (aMs !== bMs) return aMs < bMs ? -1 : 1;
  if (aSeq !== bSeq) return aSeq < bSeq ? -1 : 1;
  return 0;
}

export const STREAM_ID = /^\d{1,20}-\d{1,20}$/;

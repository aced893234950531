/**
 * Every pushed document carries `version`: the global log position that last changed it. A
 * document is applied only when it is newer than the one held, so a replayed, duplicated or
 * out-of-order message can never roll the screen back.
 */
export interface Versioned {
  version: number;
}

export function isNewer(held: Versioned | null | undefined, incoming: Versioned): boolean {
  return !held || incoming.version > held.version;
}

/** Keeps the newer of two documents (the one held wins a tie). */
export function newerOf<T extends Versioned>(held: T | null | undefined, incoming: T): T {
  return isNewer(held, incoming) ? incoming : (held as T);
}

/** Replaces the item with the same id in a list when the incoming one is newer, or adds it in front. */
export function upsertNewer<T extends Versioned & { id: string }>(list: readonly T[], incoming: T): T[] {
  const index = list.findIndex((item) => item.id === incoming.id);
  if (index === -1) return [incoming, ...list];
  if (!isNewer(list[index], incoming)) return list as T[];
  const next = list.slice();
  next[index] = incoming;
  return next;
}

/** Redis stream ids ("<ms>-<seq>") in order; the client remembers the greatest it has seen. */
export function laterStreamId(a: string | null, b: string): string {
  if (!a) return b;
  const [aMs, aSeq] = a.split('-').map(Number) as [number, number];
  const [bMs, bSeq] = b.split('-').map(Number) as [number, number];
  return bMs > aMs || (bMs === aMs && bSeq > aSeq) ? b : a;
}

/**
 * A REST answer replaces the held document unless the held one is strictly newer (a push overtook
 * the request). Ties go to the answer: same data, but fresh signed document URLs.
 */
export function fetchedOver<T extends Versioned>(held: T | null | undefined, fetched: T): T {
  return held && held.version > fetched.version ? held : fetched;
}

/**
 * The list a fetch ends with: the server's list as answered, then every document pushed while the
 * request was on its way applied on top with the version rule. Items the answer no longer holds
 * (and no push brought back) are gone, so a refetch also drops what was deleted.
 */
export function settleFetched<T extends Versioned & { id: string }>(fetched: readonly T[], pushedDuringFetch: readonly T[]): T[] {
  return pushedDuringFetch.reduce<T[]>((list, pushed) => upsertNewer(list, pushed), [...fetched]);
}

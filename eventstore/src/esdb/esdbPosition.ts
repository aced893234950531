import { START, type Position, type ReadPosition } from '@eventstore/db-client';

/*
 * How the port's numeric global position maps onto EventStoreDB's {commit, prepare}.
 *
 * EventStoreDB names a place in $all by two byte offsets into its transaction log: the commit
 * record and the event's prepare record. In the TCP era an explicit transaction wrote several
 * prepares and one commit record after them, so its events shared `commit` and differed in
 * `prepare`. Appends through the gRPC client (the only writes this client can make) never do
 * that: the storage writer writes one prepare per event, back to back, each flagged IsCommitted,
 * and no commit record (StorageWriterService.WritePrepares). Such a prepare commits itself, and
 * the server reports its position as {commit: p, prepare: p} where p is that event's own log
 * offset: on $all reads (AllReader: `new CommitEventRecord(eventRecord, eventRecord.LogPosition)`),
 * on subscriptions, and since 22.6 on stream reads too (ResolvedEvent: a self-committed event is at
 * TFPos(LogPosition, LogPosition)). So commit == prepare for every event, including each event of
 * a multi-event append, and they differ from event to event.
 *
 * The numeric position is therefore that offset p:
 * - unique per event (distinct records have distinct offsets);
 * - increasing in $all order ($all is ordered by (commit, prepare), which here is log order);
 * - a safe integer (the log would have to pass 8 PiB to exceed 2^53);
 * - exact to resume from: {commit: p, prepare: p} names exactly the event at p. readAll from a
 *   position includes the event there (AllReader keeps records at or after it), so readers drop
 *   it; subscribeToAll from a position starts after it (the server reads that one event and
 *   continues from the next), and subscribers drop anything at or before it all the same, so no
 *   event is delivered twice whichever way a server version counts.
 * Only 0 or a position this store returned may be passed back: any other number is not a record
 * boundary in the log.
 *
 * An append answers with the commit position the server acknowledged, which is the offset of the
 * append's last prepare (the chaser acknowledges the prepare flagged TransactionEnd): the
 * position of the last appended event. An event whose commit differs from its prepare could only
 * have come from a legacy TCP explicit transaction; it is refused rather than given a made-up place
 * in the order.
 */

export function numericPositionOf(position: Position | undefined, eventId: string): number {
  if (!position) throw new Error(`EventStoreDB returned event ${eventId} without a position (server older than 22.6?)`);
  if (position.commit !== position.prepare) {
    throw new Error(`event ${eventId} is at commit ${position.commit}, prepare ${position.prepare}: it was written in an explicit (TCP) transaction, which this store does not support`);
  }
  return safeNumberOf(position.commit, eventId);
}

export function safeNumberOf(offset: bigint, eventId: string): number {
  if (offset < 0n || offset > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new Error(`event ${eventId} has no usable log position (${offset})`);
  }
  return Number(offset);
}

/** Where to read or subscribe from to get what follows `position` (0: the beginning). */
export function readPositionOf(position: number): ReadPosition {
  if (position === 0) return START;
  return { commit: BigInt(position), prepare: BigInt(position) };
}

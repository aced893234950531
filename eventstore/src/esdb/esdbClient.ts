import type { Readable } from 'node:stream';
import type { AppendResult, AppendToStreamOptions, EventData, EventStoreDBClient, ReadAllOptions, ReadStreamOptions, SetStreamMetadataOptions, StreamMetadata, SubscribeToAllOptions } from '@eventstore/db-client';

/** A read of @eventstore/db-client: a readable of resolved events, which can be cancelled. */
export interface EsdbRead extends Readable {
  cancel(): Promise<void>;
}

/** A subscription of @eventstore/db-client: a readable of resolved events, announcing 'confirmation' once the server took it. */
export interface EsdbSubscription extends Readable {
  unsubscribe(): Promise<void>;
}

/**
 * The few calls of @eventstore/db-client's EventStoreDBClient the adapter makes. The real client
 * has them (it is assigned to this type in `connectEsdbClient`); tests give the adapter a fake of
 * them, standing for the server that cannot run here.
 */
export interface EsdbClient {
  appendToStream(stream: string, events: EventData[], options: AppendToStreamOptions): Promise<AppendResult>;
  readStream(stream: string, options: ReadStreamOptions): EsdbRead;
  readAll(options: ReadAllOptions): EsdbRead;
  subscribeToAll(options: SubscribeToAllOptions): EsdbSubscription;
  setStreamMetadata(stream: string, metadata: StreamMetadata, options: SetStreamMetadataOptions): Promise<AppendResult>;
  /** Cancels the client's calls in flight. */
  dispose(): Promise<void>;
}

/**
 * `throwOnAppendFailure` of the client's connection string (default true). With false, the client
 * answers a conflicting append with `success: false` instead of an error. The client exposes the
 * parsed value as a getter that its typings mark protected.
 */
export function throwsOnAppendFailure(client: EventStoreDBClient): boolean {
  return (client as unknown as { throwOnAppendFailure: boolean }).throwOnAppendFailure;
}

/** How long close() waits for the client's connection to be found and closed. */
const CLOSE_WAIT_MS = 2000;

/**
 * Ends the real client: its calls, then its connection. dispose() in client 6.2.1 only cancels
 * the calls in flight and leaves the gRPC channel (the HTTP/2 connection to the server) open, and
 * the client offers no public way to close it; `getChannel` is the client's own (protected)
 * accessor of that channel. With DNS discovery the channel may still be waiting for gossip: it is
 * closed whenever it comes, and close() does not wait for it longer than CLOSE_WAIT_MS.
 */
export async function closeEsdbClient(client: EventStoreDBClient): Promise<void> {
  await client.dispose();
  const channel = (client as unknown as { getChannel(): Promise<{ close(): void }> }).getChannel();
  const closed = channel.then((open) => open.close()).catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([closed, new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
  clearTimeout(timer);
}

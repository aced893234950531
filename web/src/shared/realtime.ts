import { REALTIME_EVENTS, type RealtimeEvent } from '@honeylend/contracts';
import { io, type Socket } from 'socket.io-client';
import { readToken } from './authToken';
import { laterStreamId, type Versioned } from './versionRule';

export type { RealtimeEvent };

export interface RealtimeMessage<T = unknown> {
  version: number;
  streamId: string;
  doc: T;
}

/**
 * A subscriber as the client stores it: handed every message of its event, whatever the document. Each
 * subscriber is typed by its caller (`subscribe<T>`) with the document it expects for that event; the
 * server's event names fix which document comes with which event, which the client takes on trust.
 */
type Handler = (message: RealtimeMessage) => void;

export interface RealtimeClientOptions {
  /** Where the API lives; the page's own origin by default. */
  url?: string;
  token?: () => string | null;
  /** Injected in tests; socket.io-client's `io` otherwise. */
  connect?: typeof io;
}

/**
 * One Socket.IO connection per tab. It reconnects with backoff, tells the server the last change
 * it saw (`since`) so missed changes are replayed — or, having seen none yet, asks its subscribers
 * to refetch ('resync') — and hands each message to the subscribers —
 * who apply a document only when it is newer than the one they hold (see versionRule).
 */
export class RealtimeClient {
  private socket: Socket | null = null;
  private since: string | null = null;
  private readonly handlers = new Map<string, Set<Handler>>();

  constructor(private readonly options: RealtimeClientOptions = {}) {}

  get lastStreamId(): string | null {
    return this.since;
  }

  get connected(): boolean {
    return this.socket?.connected ?? false;
  }

  /** Subscribes to a pushed event, or to 'resync' (refetch over REST) and 'revoked' (the session ended). Returns the unsubscribe. */
  subscribe<T extends Versioned>(event: RealtimeEvent | 'resync' | 'revoked', handler: (message: RealtimeMessage<T>) => void): () => void {
    const set = this.handlers.get(event) ?? new Set();
    set.add(handler as Handler);
    this.handlers.set(event, set);
    return () => set.delete(handler as Handler);
  }

  private dispatch(event: string, message: RealtimeMessage): void {
    for (const handler of this.handlers.get(event) ?? []) handler(message);
  }

  /** Handles one pushed message: remember how far the feed has been read, then hand it on. */
  receive(event: RealtimeEvent, message: RealtimeMessage): void {
    if (typeof message?.streamId === 'string') this.since = laterStreamId(this.since, message.streamId);
    this.dispatch(event, message);
  }

  connect(): void {
    if (this.socket) return;
    const token = this.options.token ?? readToken;
    const connect = this.options.connect ?? io;
    // A reconnect without a position (a tab that has not yet received a push) cannot be replayed
    // to: whatever changed while it was away is refetched over REST instead.
    let sentSince = false;
    let connectedBefore = false;
    const socket = connect(this.options.url ?? '', {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: true,
      reconnectionDelay: 500,
      reconnectionDelayMax: 10_000,
      randomizationFactor: 0.5,
      // Evaluated on every (re)connection, so a reconnect asks for what it missed.
      auth: (send) => {
        sentSince = this.since !== null;
        send({ token: token(), ...(this.since ? { since: this.since } : {}) });
      },
    });
    socket.on('connect', () => {
      if (connectedBefore && !sentSince) this.dispatch('resync', { version: 0, streamId: '', doc: null });
      connectedBefore = true;
    });
    // The deletions (`doc: { id }`) matter to the admin console's tables.
    for (const event of REALTIME_EVENTS) socket.on(event, (message: RealtimeMessage) => this.receive(event, message));
    socket.on('resync.required', () => this.dispatch('resync', { version: 0, streamId: '', doc: null }));
    socket.on('session.revoked', (reason: unknown) => {
      this.dispatch('revoked', { version: 0, streamId: '', doc: reason });
      this.disconnect();
    });
    socket.on('connect_error', (error: Error) => {
      // A refused token will not become valid by retrying.
      if (/sign in|suspended/i.test(error.message)) {
        this.dispatch('revoked', { version: 0, streamId: '', doc: { reason: error.message } });
        this.disconnect();
      }
    });
    this.socket = socket;
  }

  disconnect(): void {
    this.socket?.removeAllListeners();
    this.socket?.disconnect();
    this.socket = null;
  }

  /** After sign-out or a change of account: forget the feed position too. */
  reset(): void {
    this.disconnect();
    this.since = null;
  }
}

let shared: RealtimeClient | null = null;

/** The tab's one connection. */
export function realtime(): RealtimeClient {
  shared ??= new RealtimeClient();
  return shared;
}

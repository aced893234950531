import type { Server as HttpServer } from 'node:http';
import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import { rooms, toLoanAnswer, toNotificationAnswer, toUserAnswer, toWithdrawalAnswer, type LoanDoc, type MemberDoc, type NotificationDoc, type WithdrawalDoc } from '@honeylend/contracts';
import type { ApiDeps } from '../http/context.js';
import { metrics } from '@honeylend/observability';
import type { Role } from '../auth/tokens.js';
import { compareStreamIds, parseFeedEntry, STREAM_ID, type FeedEntry } from './changeFeed.js';
import { readAdminStats } from '../admin/stats/readAdminStats.js';

interface SocketState {
  callerId: string;
  role: Role;
  rooms: string[];
  /** When the token expires (ms since the epoch): the socket is closed then, as the REST API would refuse it. */
  expiresAt: number;
}

/** A socket still replaying what it missed: live entries wait here so they arrive after the replay, in order. */
interface CatchingUp {
  socket: Socket;
  rooms: Set<string>;
  buffered: FeedEntry[];
}

const READ_BATCH = 500;
/** Stat cards are recomputed at most this often, however many changes arrive. */
const STATS_COALESCE_MS = 100;
const COUNTED_EVENTS = new Set(['member.updated', 'member.deleted', 'loan.updated', 'loan.deleted', 'withdrawal.updated']);
const BLOCK_MS = 5_000;

/**
 * Socket.IO on the API's own HTTP server. Every API node tails the change feed (rm:changes) itself
 * and emits each entry to its own sockets in the rooms the entry names, so no broadcast crosses
 * nodes and any number of nodes can hold sockets.
 */
export class RealtimeGateway {
  readonly io: Server;
  /** Id of the last feed entry this node has emitted to its rooms. */
  private lastDeliveredId = '0-0';
  private readonly catchingUp = new Set<CatchingUp>();
  private stopped = false;
  private statsTimer: NodeJS.Timeout | null = null;
  /** The newest delivered change that moves a stat card: the version a stats.updated carries. */
  private lastCounted: FeedEntry | null = null;
  private tailing: Promise<void> | null = null;
  /** Removes this gateway's count from the live-sockets gauge when it stops. */
  private readonly unobserveSockets: () => void;

  constructor(
    httpServer: HttpServer,
    private readonly deps: ApiDeps,
    /** A connection of its own: XREAD BLOCK holds it. */
    private readonly tailRedis: Redis,
  ) {
    this.io = new Server(httpServer, { path: '/socket.io', serveClient: false, cors: { origin: false } });
    this.io.use((socket, next) => {
      this.authenticate(socket)
        .then((state) => {
          socket.data = state;
          next();
        })
        .catch((error: Error) => next(error));
    });
    this.io.on('connection', (socket) => {
      this.closeAtExpiry(socket);
      void this.welcome(socket);
    });
    this.unobserveSockets = metrics.observe(
      { name: 'honeylend_sockets', help: 'Live Socket.IO connections on this API node, by the account role that holds them', labelNames: ['role'] },
      (add) => {
        for (const role of ['borrower', 'admin', 'superadmin']) add({ role }, 0);
        for (const [, socket] of this.io.sockets.sockets) {
          const role = (socket.data as SocketState | undefined)?.role;
          if (role) add({ role }, 1);
        }
      },
    );
  }

  private async authenticate(socket: Socket): Promise<SocketState> {
    const token = (socket.handshake.auth as { token?: unknown }).token;
    const claims = typeof token === 'string' ? this.deps.tokens.verify(token) : null;
    if (!claims) throw new Error('Please sign in to continue');
    const [record, signedOut] = await Promise.all([this.deps.readModels.auth(claims.sub), this.deps.tokens.revoked?.has(claims.jti) ?? false]);
    if (!record || record.tokenVersion !== claims.tv || record.role !== claims.role || signedOut) throw new Error('Please sign in to continue');
    if (record.status === 'suspended') throw new Error('Your account has been suspended. Please contact support.');
    // An auditor hears only the audit room (never members' documents); the main admin both.
    const joined = { borrower: [rooms.member(claims.sub)], admin: [rooms.admins], superadmin: [rooms.admins, rooms.audit], auditor: [rooms.audit] }[record.role];
    return { callerId: claims.sub, role: record.role, rooms: joined, expiresAt: claims.exp * 1000 };
  }

  private closeAtExpiry(socket: Socket): void {
    const { expiresAt } = socket.data as SocketState;
    // setTimeout cannot wait longer than about 24.8 days; tokens live 12 hours.
    const timer = setTimeout(() => {
      socket.emit('session.revoked', { reason: 'expired' });
      socket.disconnect(true);
    }, Math.min(Math.max(0, expiresAt - Date.now()), 2 ** 31 - 1));
    socket.once('disconnect', () => clearTimeout(timer));
  }

  /** Replays what the client missed since `auth.since` (if anything), then puts it in its live rooms. */
  private async welcome(socket: Socket): Promise<void> {
    const state = socket.data as SocketState;
    const since = (socket.handshake.auth as { since?: unknown }).since;
    if (typeof since !== 'string' || !STREAM_ID.test(since)) {
      socket.join(state.rooms);
      return;
    }
    const pending: CatchingUp = { socket, rooms: new Set(state.rooms), buffered: [] };
    this.catchingUp.add(pending);
    try {
      const upTo = this.lastDeliveredId;
      // Not on tailRedis: that connection sits in a blocking XREAD.
      const oldest = await this.deps.redis.xrange(this.deps.readModels.keys.changes, '-', '+', 'COUNT', 1).catch(() => []);
      const oldestId = oldest[0]?.[0];
      if (oldestId && compareStreamIds(since, oldestId) < 0 && compareStreamIds(since, '0-0') > 0) {
        // The feed no longer holds everything after `since`: the client must refetch over REST.
        socket.emit('resync.required', { oldest: oldestId });
      } else if (compareStreamIds(since, upTo) < 0) {
        for (const entry of await this.readRange(since, upTo)) {
          if (entry.rooms.some((room) => pending.rooms.has(room))) this.emitTo(socket, entry);
        }
      }
      // Synchronously: flush what arrived live meanwhile, then join the rooms, so nothing is lost or doubled.
      for (const entry of pending.buffered) this.emitTo(socket, entry);
      socket.join(state.rooms);
    } finally {
      this.catchingUp.delete(pending);
    }
  }

  /** Entries after `after` up to and including `upTo`, in order. */
  private async readRange(after: string, upTo: string): Promise<FeedEntry[]> {
    const entries: FeedEntry[] = [];
    let from = `(${after}`;
    for (;;) {
      const batch = await this.deps.redis.xrange(this.deps.readModels.keys.changes, from, upTo, 'COUNT', READ_BATCH);
      for (const [id, fields] of batch) {
        const entry = parseFeedEntry(id, fields);
        if (entry) entries.push(entry);
      }
      if (batch.length < READ_BATCH) return entries;
      from = `(${batch[batch.length - 1]![0]}`;
    }
  }

  /** The document as the API answers it (pesos, signed document URLs), never the raw read model. */
  private payload(entry: FeedEntry): unknown {
    const urlFor = (fileId: string) => this.deps.signedFileUrls.urlFor(fileId);
    switch (entry.event) {
      case 'member.updated':
        return toUserAnswer(entry.doc as MemberDoc, urlFor);
      case 'loan.updated':
        return toLoanAnswer(entry.doc as LoanDoc);
      case 'withdrawal.updated':
        return toWithdrawalAnswer(entry.doc as WithdrawalDoc);
      case 'notification.created':
        return toNotificationAnswer(entry.doc as NotificationDoc);
      default:
        return entry.doc;
    }
  }

  private emitTo(target: Socket | ReturnType<Server['to']>, entry: FeedEntry): void {
    target.emit(entry.event, { version: entry.version, streamId: entry.streamId, doc: this.payload(entry) });
  }

  private deliver(entry: FeedEntry): void {
    this.lastDeliveredId = entry.streamId;
    if (this.deps.logger.isLevelEnabled('debug')) {
      this.deps.logger.debug('change pushed', { requestId: entry.requestId, event: entry.event, rooms: entry.rooms, version: entry.version, streamId: entry.streamId });
    }
    if (entry.event === 'session.revoked') {
      const { id, reason } = entry.doc as { id: string; reason: string };
      this.revoke(id, reason);
      return;
    }
    for (const pending of this.catchingUp) {
      if (entry.rooms.some((room) => pending.rooms.has(room))) pending.buffered.push(entry);
    }
    this.emitTo(this.io.to(entry.rooms), entry);
    if (COUNTED_EVENTS.has(entry.event) && entry.rooms.includes(rooms.admins)) {
      this.lastCounted = entry;
      this.scheduleStats();
    }
  }

  /**
   * `stats.updated` for the admins' stat cards: the counters the projections wrote in the same
   * MULTI as the entry just delivered, read once for a burst of changes.
   */
  private scheduleStats(): void {
    if (this.statsTimer) return;
    this.statsTimer = setTimeout(() => {
      this.statsTimer = null;
      const { version, streamId } = this.lastCounted!;
      readAdminStats(this.deps)
        .then((doc) => this.io.to(rooms.admins).emit('stats.updated', { version, streamId, doc }))
        .catch((error: unknown) => this.deps.logger.warn('stats read failed', { error: error instanceof Error ? error.message : String(error) }));
    }, STATS_COALESCE_MS);
  }

  /** Starts following the feed from its current end; resolves once the starting point is known. */
  async start(): Promise<void> {
    const last = await this.tailRedis.xrevrange(this.deps.readModels.keys.changes, '+', '-', 'COUNT', 1);
    this.lastDeliveredId = last[0]?.[0] ?? '0-0';
    this.tailing = this.tail();
  }

  private async tail(): Promise<void> {
    let pauseMs = 200;
    while (!this.stopped) {
      try {
        const answer = (await this.tailRedis.xread('COUNT', READ_BATCH, 'BLOCK', BLOCK_MS, 'STREAMS', this.deps.readModels.keys.changes, this.lastDeliveredId)) as
          | [string, [string, string[]][]][]
          | null;
        pauseMs = 200;
        for (const [, entries] of answer ?? []) {
          for (const [id, fields] of entries) {
            const entry = parseFeedEntry(id, fields);
            if (entry) this.deliver(entry);
            else this.lastDeliveredId = id;
          }
        }
      } catch (error) {
        if (this.stopped) return;
        this.deps.logger.warn('change feed read failed; retrying', { error: error instanceof Error ? error.message : String(error), retryInMs: pauseMs });
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
        pauseMs = Math.min(pauseMs * 2, 5_000);
      }
    }
  }

  /** Sends to this node's auditors (and main admins): the audit jobs' progress and results. */
  toAuditors(event: 'audit.job', payload: unknown): void {
    this.io.to(rooms.audit).emit(event, payload);
  }

  /** Ends every connection a revoked account holds (suspension, deletion, password reset). */
  revoke(callerId: string, reason: string): void {
    for (const [, socket] of this.io.sockets.sockets) {
      if ((socket.data as SocketState | undefined)?.callerId === callerId) {
        socket.emit('session.revoked', { reason });
        socket.disconnect(true);
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unobserveSockets();
    if (this.statsTimer) clearTimeout(this.statsTimer);
    this.tailRedis.disconnect();
    await this.tailing?.catch(() => undefined);
    this.io.disconnectSockets(true);
    await new Promise<void>((resolve) => this.io.close(() => resolve()));
  }
}

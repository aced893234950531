import type { Server as HttpServer } from 'node:http';
import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import {
  rooms,
  toApprovalAnswer,
  toLoanAnswer,
  toNotificationAnswer,
  toUserAnswer,
  toWithdrawalAnswer,
  type ApprovalDoc,
  type LoanDoc,
  type MemberDoc,
  type NotificationDoc,
  type WithdrawalDoc,
} from '@honeylend/contracts';
import type { ApiDeps } from '../context/context.js';
import { metrics } from '@honeylend/observability';
import type { Role } from '../sessions/tokens.js';
import { compareStreamIds, parseFeedEntry, STREAM_ID, type FeedEntry } from './changeFeed.js';
import { ReplayWindow } from './replayWindow.js';
import { addressAllowed, allowListCovers, readAllowedIps } from '../allowList/allowList.js';
import { clientAddress } from '../http/clientAddress.js';
import type { AdminStatsAnswer, AllowedIpDoc, BusinessDate } from '@honeylend/contracts';

interface SocketState {
  callerId: string;
  role: Role;
  /** The token's id (jti): signing out with that token ends this socket, on whichever node it is. */
  tokenId: string;
  /** The client's address, resolved as for HTTP (clientAddress, TRUSTED_PROXIES): the allow-list is checked against it. */
  address: string;
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
/**
 * How far back a resuming socket may ask to be replayed, in feed entries. Older than that (or
 * `0-0`, the whole feed) it is told to refetch over REST: one socket must not make the API walk
 * the whole change feed.
 */
export const REPLAY_WINDOW = 10_000;
/** Stat cards are recomputed at most this often, however many changes arrive. */
const STATS_COALESCE_MS = 100;
const COUNTED_EVENTS = new Set(['member.updated', 'member.deleted', 'loan.updated', 'loan.deleted', 'withdrawal.updated']);
const BLOCK_MS = 5_000;
const DAY_MS = 86_400_000;

/**
 * Socket.IO on the API's own HTTP server. Every API node tails the change feed (rm:changes) itself
 * and emits each entry to its own sockets in the rooms the entry names, so no broadcast crosses
 * nodes and any number of nodes can hold sockets.
 */
export class RealtimeGateway {
  readonly io: Server;
  /** Id of the last feed entry this node has emitted to its rooms. */
  private lastDeliveredId = '0-0';
  /** The ids of the last REPLAY_WINDOW entries up to lastDeliveredId: how far back a replay may start. */
  private readonly window = new ReplayWindow(REPLAY_WINDOW);
  private readonly catchingUp = new Set<CatchingUp>();
  private stopped = false;
  private statsTimer: NodeJS.Timeout | null = null;
  /** The newest delivered change that moves a stat card: the version a stats.updated carries. */
  private lastCounted: FeedEntry | null = null;
  private tailing: Promise<void> | null = null;
  /** Removes this gateway's count from the live-sockets gauge when it stops. */
  private readonly unobserveSockets: () => void;
  /**
   * How far the business clock runs ahead of the wall clock (whole days a dev move added; none in
   * production), read before each batch is sent: a member's withdrawal hold ends by the business
   * clock, as the routes say, and building the answers stays synchronous.
   */
  private businessShiftMs = 0;
  /** The business date, read before each batch is pushed: an undisbursed loan's schedule counts from it. */
  private today: BusinessDate | null = null;

  constructor(
    httpServer: HttpServer,
    private readonly deps: ApiDeps,
    /** A connection of its own: XREAD BLOCK holds it. */
    private readonly tailRedis: Redis,
    /** A connection of its own for SUBSCRIBE: revoked tokens are announced on it by every node. */
    private readonly revocationRedis: Redis,
    /** The admins' stat cards as they stand now (the statistics capability reads them; the gateway only pushes them). */
    private readonly readAdminStats: () => Promise<AdminStatsAnswer>,
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
      void this.stillValid(socket).then((valid) => (valid ? this.welcome(socket) : undefined));
    });
    this.unobserveSockets = metrics.observe({ name: 'honeylend_sockets', help: 'Live Socket.IO connections on this API node, by the account role that holds them', labelNames: ['role'] }, (add) => {
      for (const role of ['borrower', 'admin', 'superadmin']) add({ role }, 0);
      for (const [, socket] of this.io.sockets.sockets) {
        const role = (socket.data as SocketState | undefined)?.role;
        if (role) add({ role }, 1);
      }
    });
  }

  /** The client's address by the HTTP rules: the peer, or X-Forwarded-For read behind a trusted proxy. */
  private addressOf(socket: Socket): string {
    const forwarded = socket.handshake.headers['x-forwarded-for'];
    return clientAddress(socket.request.socket.remoteAddress, Array.isArray(forwarded) ? forwarded.join(',') : forwarded, this.deps.trustedProxies ?? []);
  }

  private async authenticate(socket: Socket): Promise<SocketState> {
    const token = (socket.handshake.auth as { token?: unknown }).token;
    const claims = typeof token === 'string' ? this.deps.tokens.verify(token) : null;
    if (!claims) throw new Error('Please sign in to continue');
    const address = this.addressOf(socket);
    const staff = claims.role !== 'borrower';
    const [record, signedOut, allowList] = await Promise.all([this.deps.readModels.auth(claims.sub), this.deps.tokens.revoked?.has(claims.jti) ?? false, staff ? readAllowedIps(this.deps) : null]);
    if (!record || record.tokenVersion !== claims.tv || record.role !== claims.role || signedOut) throw new Error('Please sign in to continue');
    if (record.status === 'suspended') throw new Error('Your account has been suspended. Please contact support.');
    // Staff sockets carry members' personal data and signed document URLs: the allow-list applies as on the admin routes.
    if (record.role !== 'borrower' && !(allowList && allowListCovers(allowList, address))) {
      throw Object.assign(new Error(`The management panel cannot be reached from your address (${address}).`), { data: { code: 'IP_NOT_ALLOWED', clientAddress: address } });
    }
    // An auditor hears only the audit room (never members' documents); the main admin both, and the allow-list's changes.
    const joined = { borrower: [rooms.member(claims.sub)], admin: [rooms.admins], superadmin: [rooms.admins, rooms.audit, rooms.mainAdmin], auditor: [rooms.audit] }[record.role];
    return { callerId: claims.sub, role: record.role, tokenId: claims.jti, address, rooms: joined, expiresAt: claims.exp * 1000 };
  }

  /**
   * Checked again once the socket is registered (where a revocation or an allow-list change would
   * find it): a sign-out or a new list that landed between the handshake's checks and the
   * registration would otherwise be missed. Fails closed when Redis cannot answer.
   */
  private async stillValid(socket: Socket): Promise<boolean> {
    const state = socket.data as SocketState;
    let reason: string | null = null;
    try {
      const [signedOut, allowed] = await Promise.all([this.deps.tokens.revoked?.has(state.tokenId) ?? false, state.role === 'borrower' ? true : addressAllowed(this.deps, state.address)]);
      if (signedOut) reason = 'signed-out';
      else if (!allowed) reason = 'address-not-allowed';
    } catch {
      // Redis did not answer: nothing proves the session ended, so the connection is dropped (the
      // client reconnects and is checked afresh) rather than the session declared revoked.
      socket.conn.close();
      return false;
    }
    if (reason === null) return true;
    this.end(socket, reason);
    return false;
  }

  private end(socket: Socket, reason: string): void {
    socket.emit('session.revoked', { reason });
    socket.disconnect(true);
  }

  /** Ends this node's sockets opened with a token that was signed out (announced by whichever node took the logout). */
  private endToken(tokenId: string): void {
    for (const [, socket] of this.io.sockets.sockets) {
      if ((socket.data as SocketState | undefined)?.tokenId === tokenId) this.end(socket, 'signed-out');
    }
  }

  /** Ends this node's sockets of an account announced on the accounts channel (`{ id, reason }`, see RevokedTokens). */
  private endAccount(message: string): void {
    let announced: unknown;
    try {
      announced = JSON.parse(message);
    } catch {
      return;
    }
    const { id, reason } = (announced ?? {}) as { id?: unknown; reason?: unknown };
    if (typeof id === 'string' && typeof reason === 'string') this.revoke(id, reason);
  }

  /** Ends this node's staff sockets whose address the new allow-list no longer covers. */
  private enforceAllowList(rules: readonly AllowedIpDoc[]): void {
    for (const [, socket] of this.io.sockets.sockets) {
      const state = socket.data as SocketState | undefined;
      if (state && state.role !== 'borrower' && !allowListCovers(rules, state.address)) this.end(socket, 'address-not-allowed');
    }
  }

  /** After the subscription was down (announcements missed meanwhile): every live socket's token is checked again. */
  private recheckAllTokens(): void {
    for (const [, socket] of this.io.sockets.sockets) if (socket.data) void this.stillValid(socket);
  }

  private closeAtExpiry(socket: Socket): void {
    const { expiresAt } = socket.data as SocketState;
    // setTimeout cannot wait longer than about 24.8 days; tokens live 12 hours.
    const timer = setTimeout(
      () => {
        socket.emit('session.revoked', { reason: 'expired' });
        socket.disconnect(true);
      },
      Math.min(Math.max(0, expiresAt - Date.now()), 2 ** 31 - 1),
    );
    socket.once('disconnect', () => clearTimeout(timer));
  }

  /** Replays what the client missed since `auth.since` (if anything), then puts it in its live rooms. */
  private async welcome(socket: Socket): Promise<void> {
    const state = socket.data as SocketState;
    const since = (socket.handshake.auth as { since?: unknown }).since;
    if (typeof since !== 'string' || !STREAM_ID.test(since)) {
      void socket.join(state.rooms);
      return;
    }
    const pending: CatchingUp = { socket, rooms: new Set(state.rooms), buffered: [] };
    this.catchingUp.add(pending);
    try {
      const upTo = this.lastDeliveredId;
      this.today = await this.deps.businessClock.today();
      // Not on tailRedis: that connection sits in a blocking XREAD.
      const oldest = await this.deps.redis.xrange(this.deps.readModels.keys.changes, '-', '+', 'COUNT', 1).catch(() => []);
      const oldestId = oldest[0]?.[0];
      if (compareStreamIds(since, '0-0') <= 0) {
        // "Everything there is": that is what REST answers, not a replay of the whole feed.
        socket.emit('resync.required', { reason: 'from-the-start' });
      } else if (oldestId && compareStreamIds(since, oldestId) < 0) {
        // The feed no longer holds everything after `since`: the client must refetch over REST.
        socket.emit('resync.required', { reason: 'trimmed', oldest: oldestId });
      } else if (this.window.isBeyond(since)) {
        socket.emit('resync.required', { reason: 'too-far-behind', window: REPLAY_WINDOW });
      } else if (compareStreamIds(since, upTo) < 0) {
        await this.readBusinessShift();
        await this.replay(socket, since, upTo, pending.rooms);
      }
      // Synchronously: flush what arrived live meanwhile, then join the rooms, so nothing is lost or doubled.
      for (const entry of pending.buffered) this.emitTo(socket, entry);
      void socket.join(state.rooms);
    } finally {
      this.catchingUp.delete(pending);
    }
  }

  /**
   * Emits to the socket the entries after `after` up to and including `upTo` that name one of its
   * rooms, in order, reading the feed a batch at a time: only one batch is ever held, and the
   * window check before it keeps the walk within REPLAY_WINDOW entries.
   */
  private async replay(socket: Socket, after: string, upTo: string, joined: ReadonlySet<string>): Promise<void> {
    let from = `(${after}`;
    for (;;) {
      const batch = await this.deps.redis.xrange(this.deps.readModels.keys.changes, from, upTo, 'COUNT', READ_BATCH);
      for (const [id, fields] of batch) {
        const entry = parseFeedEntry(id, fields);
        if (entry && entry.rooms.some((room) => joined.has(room))) this.emitTo(socket, entry);
      }
      if (batch.length < READ_BATCH || !socket.connected) return;
      from = `(${batch[batch.length - 1][0]}`;
    }
  }

  /** The document as the API answers it (pesos, signed document URLs), never the raw read model. */
  private payload(entry: FeedEntry): unknown {
    const urlFor = (fileId: string) => this.deps.signedFileUrls.urlFor(fileId);
    switch (entry.event) {
      case 'member.updated':
        return toUserAnswer(entry.doc as MemberDoc, urlFor, new Date(this.deps.now().getTime() + this.businessShiftMs), this.deps.privacyNoticeVersion);
      case 'loan.updated':
        return toLoanAnswer(entry.doc as LoanDoc, this.today ?? this.deps.businessClock.realToday());
      case 'withdrawal.updated':
        return toWithdrawalAnswer(entry.doc as WithdrawalDoc);
      case 'notification.created':
      case 'notification.updated':
        return toNotificationAnswer(entry.doc as NotificationDoc);
      case 'approval.updated':
        return toApprovalAnswer(entry.doc as ApprovalDoc);
      default:
        return entry.doc;
    }
  }

  private emitTo(target: Socket | ReturnType<Server['to']>, entry: FeedEntry): void {
    target.emit(entry.event, { version: entry.version, streamId: entry.streamId, doc: this.payload(entry) });
  }

  /** Whether any socket connected to this node has joined one of `names`. */
  private anyoneIn(names: string[]): boolean {
    const joined = this.io.sockets.adapter.rooms;
    return names.some((room) => (joined.get(room)?.size ?? 0) > 0);
  }

  private deliver(entry: FeedEntry): void {
    this.passed(entry.streamId);
    if (this.deps.logger.isLevelEnabled('debug')) {
      this.deps.logger.debug('change pushed', { requestId: entry.requestId, event: entry.event, rooms: entry.rooms, version: entry.version, streamId: entry.streamId });
    }
    if (entry.event === 'session.revoked') {
      const { id, reason } = entry.doc as { id: string; reason: string };
      this.revoke(id, reason);
      return;
    }
    const allowList = entry.event === 'settings.updated' ? (entry.doc as { allowedIps?: AllowedIpDoc[] }).allowedIps : undefined;
    if (allowList) this.enforceAllowList(allowList);
    for (const pending of this.catchingUp) {
      if (entry.rooms.some((room) => pending.rooms.has(room))) pending.buffered.push(entry);
    }
    // The answer (a loan's schedule and disclosure) is built and encoded only when one of this node's
    // sockets is in a room the entry names: socket.io encodes a broadcast even for an empty room.
    if (this.anyoneIn(entry.rooms)) this.emitTo(this.io.to(entry.rooms), entry);
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
      this.readAdminStats()
        .then((doc) => this.io.to(rooms.admins).emit('stats.updated', { version, streamId, doc }))
        .catch((error: unknown) => this.deps.logger.warn('stats read failed', { error: error instanceof Error ? error.message : String(error) }));
    }, STATS_COALESCE_MS);
  }

  /** The feed entry `id` has been handled: the next read starts after it, and it enters the replay window. */
  private passed(id: string): void {
    this.lastDeliveredId = id;
    this.window.add(id);
  }

  /** The window at start: the ids of the feed's last REPLAY_WINDOW entries, read backwards a batch at a time. */
  private async loadWindow(): Promise<void> {
    const newestFirst: string[] = [];
    let before = '+';
    while (newestFirst.length < REPLAY_WINDOW) {
      const batch = await this.tailRedis.xrevrange(this.deps.readModels.keys.changes, before, '-', 'COUNT', Math.min(READ_BATCH, REPLAY_WINDOW - newestFirst.length));
      for (const [id] of batch) newestFirst.push(id);
      if (batch.length === 0 || newestFirst.length >= REPLAY_WINDOW) break;
      before = `(${batch[batch.length - 1][0]}`;
    }
    for (let i = newestFirst.length - 1; i >= 0; i--) this.passed(newestFirst[i]);
  }

  /**
   * Starts following the feed from its current end (and hearing revoked tokens); resolves once the
   * starting point is known.
   */
  async start(): Promise<void> {
    await this.loadWindow();
    this.today = await this.deps.businessClock.today();
    const revoked = this.deps.tokens.revoked;
    if (revoked) {
      this.revocationRedis.on('message', (channel: string, message: string) => {
        if (channel === revoked.channel) this.endToken(message);
        else if (channel === revoked.accountsChannel) this.endAccount(message);
      });
      await this.revocationRedis.subscribe(revoked.channel, revoked.accountsChannel);
      // ioredis subscribes again on reconnection; what was announced while it was away is found by checking every socket.
      this.revocationRedis.on('ready', () => this.recheckAllTokens());
    }
    this.tailing = this.tail();
  }

  private async readBusinessShift(): Promise<void> {
    const shift = (await this.deps.businessClock.businessNow()).getTime() - this.deps.now().getTime();
    this.businessShiftMs = Math.round(shift / DAY_MS) * DAY_MS;
  }

  /** Both readings of the business clock the answers of a batch need: the shift and the date. */
  private async readBusinessTime(): Promise<void> {
    await this.readBusinessShift();
    this.today = await this.deps.businessClock.today();
  }

  private async tail(): Promise<void> {
    let pauseMs = 200;
    while (!this.stopped) {
      try {
        const answer = await this.tailRedis.xread('COUNT', READ_BATCH, 'BLOCK', BLOCK_MS, 'STREAMS', this.deps.readModels.keys.changes, this.lastDeliveredId);
        pauseMs = 200;
        if (answer) await this.readBusinessTime();
        for (const [, entries] of answer ?? []) {
          for (const [id, fields] of entries) {
            const entry = parseFeedEntry(id, fields);
            if (entry) this.deliver(entry);
            else this.passed(id);
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

  /**
   * Ends every connection the account holds, on this node at once and on every other node through
   * the accounts channel. The change feed announces it again once the projections reach the
   * event; should Redis not take the announcement now, that is what ends the other nodes' sockets.
   */
  async revokeEverywhere(callerId: string, reason: string): Promise<void> {
    this.revoke(callerId, reason);
    try {
      await this.deps.tokens.revoked?.endAccountSessions(callerId, reason);
    } catch (error) {
      this.deps.logger.warn('sessions not announced to the other nodes; the change feed will end them', { callerId, reason, error: error instanceof Error ? error.message : String(error) });
    }
  }

  /** Ends this node's connections of a revoked account (suspension, deletion, password reset). */
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
    this.revocationRedis.disconnect();
    await this.tailing?.catch(() => undefined);
    this.io.disconnectSockets(true);
    await new Promise<void>((resolve) => {
      void this.io.close(() => resolve());
    });
  }
}

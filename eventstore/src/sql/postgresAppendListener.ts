import pg from 'pg';

const FIRST_RECONNECT_DELAY_MS = 250;
const MAX_RECONNECT_DELAY_MS = 5000;

/**
 * Keeps one dedicated connection LISTENing on the schema's append channel (a pooled connection
 * cannot: the pool hands it to other queries and LISTEN would go with it), and reconnects it with
 * a growing pause when it drops. After every (re)connect it wakes the listeners once, because
 * notifications sent while it was away are lost and the subscribers must look for themselves.
 */
export class PostgresAppendListener {
  private readonly listeners = new Set<() => void>();
  private connection: pg.Client | null = null;
  private connecting = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private reconnectDelayMs = FIRST_RECONNECT_DELAY_MS;
  private closed = false;

  constructor(
    private readonly connectionConfig: pg.ClientConfig,
    private readonly channel: string,
  ) {}

  /** Starts listening on first use, so a process that never subscribes holds no extra connection. */
  add(listener: () => void): () => void {
    const entry = () => listener();
    this.listeners.add(entry);
    if (!this.connection && !this.connecting && !this.reconnectTimer && !this.closed) void this.connect();
    return () => {
      this.listeners.delete(entry);
    };
  }

  private wakeAll(): void {
    for (const listener of this.listeners) listener();
  }

  private async connect(): Promise<void> {
    this.connecting = true;
    const connection = new pg.Client({ ...this.connectionConfig, keepAlive: true });
    let dropped = false;
    const drop = () => {
      if (dropped) return;
      dropped = true;
      if (this.connection === connection) this.connection = null;
      connection.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    connection.on('error', drop);
    connection.on('end', drop);
    connection.on('notification', (message) => {
      if (message.channel === this.channel) this.wakeAll();
    });
    try {
      await connection.connect();
      await connection.query(`LISTEN "${this.channel}"`);
      if (this.closed) {
        await connection.end();
        return;
      }
      this.connection = connection;
      this.reconnectDelayMs = FIRST_RECONNECT_DELAY_MS;
      this.wakeAll();
    } catch {
      drop();
    } finally {
      this.connecting = false;
    }
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.connect();
    }, this.reconnectDelayMs);
    this.reconnectDelayMs = Math.min(this.reconnectDelayMs * 2, MAX_RECONNECT_DELAY_MS);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const connection = this.connection;
    this.connection = null;
    await connection?.end().catch(() => undefined);
  }
}

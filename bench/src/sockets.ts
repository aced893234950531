import { io, type Socket } from 'socket.io-client';

/** One borrower's Socket.IO connection, as the web app opens it (`auth: { token }`), over WebSocket only. */
export function connectSocket(baseUrl: string, token: string, timeoutMs = 20_000): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = io(baseUrl, { path: '/socket.io', transports: ['websocket'], auth: { token }, reconnection: false, forceNew: true, timeout: timeoutMs });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error: Error) => {
      socket.close();
      reject(error);
    });
  });
}

/** Connects `count` sockets, `batch` at a time; the i-th uses `tokenFor(i)`. Failures are counted, not thrown. */
export async function connectMany(
  baseUrl: string,
  count: number,
  batch: number,
  tokenFor: (i: number) => string,
  onSocket: (socket: Socket, i: number) => void,
): Promise<{ sockets: Socket[]; failed: number; firstError: string | null; seconds: number }> {
  const started = Date.now();
  const sockets: Socket[] = [];
  let failed = 0;
  let firstError: string | null = null;
  for (let from = 0; from < count; from += batch) {
    const indexes = Array.from({ length: Math.min(batch, count - from) }, (_, k) => from + k);
    const settled = await Promise.allSettled(indexes.map((i) => connectSocket(baseUrl, tokenFor(i))));
    settled.forEach((outcome, k) => {
      if (outcome.status === 'fulfilled') {
        sockets.push(outcome.value);
        onSocket(outcome.value, indexes[k]);
      } else {
        failed++;
        firstError ??= outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
      }
    });
  }
  return { sockets, failed, firstError, seconds: (Date.now() - started) / 1000 };
}

export function closeAll(sockets: Socket[]): void {
  for (const socket of sockets) socket.close();
}

import { Agent } from 'node:http';
import { io, type Socket } from 'socket.io-client';

/**
 * A Socket.IO client for tests: WebSocket only, no reconnection, and optionally from another
 * loopback address (127.0.0.2 is a different client to the server) or with forwarding headers.
 */
export function openSocket(baseUrl: string, auth: Record<string, unknown>, options: { localAddress?: string; headers?: Record<string, string> } = {}): Socket {
  return io(baseUrl, {
    path: '/socket.io',
    transports: ['websocket'],
    auth,
    reconnection: false,
    forceNew: true,
    // engine.io-client hands `agent` to the WebSocket it opens in Node (its types only know the browser's boolean).
    ...(options.localAddress ? { agent: new Agent({ localAddress: options.localAddress }) as unknown as boolean } : {}),
    ...(options.headers ? { extraHeaders: options.headers } : {}),
  });
}

/** Resolves once connected; rejects with the server's refusal. */
export function socketConnected(socket: Socket): Promise<Socket> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** The refusal of a handshake that must be refused (its message and `data`); rejects if it connects. */
export function socketRefused(socket: Socket): Promise<{ message: string; data?: { code?: string; clientAddress?: string } }> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => reject(new Error('connected, but should have been refused')));
    socket.once('connect_error', (error: Error & { data?: { code?: string; clientAddress?: string } }) => resolve({ message: error.message, data: error.data }));
  });
}

/** Resolves with the reason the server gave when it ended the socket (session.revoked), once it is disconnected. */
export function socketEnded(socket: Socket): Promise<unknown> {
  return new Promise((resolve) => {
    let reason: unknown = null;
    socket.once('session.revoked', (message: unknown) => (reason = message));
    socket.once('disconnect', () => resolve(reason));
  });
}

export async function until(condition: () => boolean | Promise<boolean>, deadlineMs = 10_000, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

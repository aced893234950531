import type { io } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { RealtimeClient } from './realtime';

/** A socket whose handshake and 'connect' events the test drives, as socket.io-client would. */
function scriptedSocket() {
  const listeners = new Map<string, ((...args: unknown[]) => void)[]>();
  let auth: ((send: (data: Record<string, unknown>) => void) => void) | null = null;
  const socket = {
    on(event: string, listener: (...args: unknown[]) => void) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return socket;
    },
    removeAllListeners: () => socket,
    disconnect: () => socket,
    connected: false,
  };
  const connect = ((_url: string, options: { auth: typeof auth }) => {
    auth = options.auth;
    return socket;
  }) as unknown as typeof io;
  /** One (re)connection: the handshake sends the auth, then 'connect' fires. Answers what was sent. */
  function connectOnce(): Record<string, unknown> {
    let sent: Record<string, unknown> = {};
    auth!((data) => (sent = data));
    for (const listener of listeners.get('connect') ?? []) listener();
    return sent;
  }
  return { connect, connectOnce };
}

describe('the realtime client after a network drop (issue 22, item 2)', () => {
  it('asks for a refetch when it reconnects with no position to resume from', () => {
    const socket = scriptedSocket();
    const client = new RealtimeClient({ connect: socket.connect, token: () => 'jwt' });
    let resyncs = 0;
    client.subscribe('resync', () => (resyncs += 1));
    client.connect();

    expect(socket.connectOnce()).toEqual({ token: 'jwt' });
    expect(resyncs).toBe(0); // the first connection comes with the REST fetch of the session

    expect(socket.connectOnce()).toEqual({ token: 'jwt' });
    expect(resyncs).toBe(1);
  });

  it('leaves a reconnect with a position to the server, which replays what was missed', () => {
    const socket = scriptedSocket();
    const client = new RealtimeClient({ connect: socket.connect, token: () => 'jwt' });
    let resyncs = 0;
    client.subscribe('resync', () => (resyncs += 1));
    client.connect();
    socket.connectOnce();
    client.receive('withdrawal.updated', { version: 7, streamId: '1700000000000-3', doc: {} });

    expect(socket.connectOnce()).toEqual({ token: 'jwt', since: '1700000000000-3' });
    expect(resyncs).toBe(0);
  });
});

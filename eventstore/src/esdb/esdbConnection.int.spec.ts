import { createServer, type Http2Server, type Http2Session, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { EventStoreDBClient } from '@eventstore/db-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventStoreUnavailable } from '../port.js';
import { closeEsdbClient } from './esdbClient.js';
import { EsdbEventStore } from './esdbEventStore.js';

/**
 * The real client against an HTTP/2 server that takes connections and calls and never answers:
 * what a stalled EventStoreDB looks like from outside. No EventStoreDB runs here; this checks the
 * adapter's bounds around the client itself.
 */
describe('EventStoreDB client against a server that never answers', () => {
  let server: Http2Server;
  let url: string;
  const sessions = new Set<Http2Session>();
  const calls: ServerHttp2Stream[] = [];

  beforeEach(async () => {
    sessions.clear();
    calls.length = 0;
    server = createServer();
    server.on('session', (session) => {
      sessions.add(session);
      session.on('close', () => sessions.delete(session));
    });
    server.on('stream', (stream) => {
      calls.push(stream);
      stream.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `esdb://127.0.0.1:${(server.address() as AddressInfo).port}?tls=false`;
  });

  afterEach(async () => {
    for (const session of sessions) session.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  const until = async (what: string, condition: () => boolean, timeoutMs = 3000) => {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it('gives up open() after the ping timeout with EventStoreUnavailable, cancelling the call and closing the connection', async () => {
    const started = Date.now();
    await expect(EsdbEventStore.open(url, { pingTimeoutMs: 500 })).rejects.toBeInstanceOf(EventStoreUnavailable);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(calls).toHaveLength(1);
    await until('the abandoned call to be cancelled', () => calls[0].closed);
    await until('the connection to be closed', () => sessions.size === 0);
  });

  it("closes the connection on close(), which the client's dispose() alone leaves open", async () => {
    const client = EventStoreDBClient.connectionString(url);
    const store = EsdbEventStore.over(client, { pingTimeoutMs: 300, close: () => closeEsdbClient(client) });
    await expect(store.ping()).rejects.toBeInstanceOf(EventStoreUnavailable);
    expect(sessions.size).toBe(1);

    await client.dispose();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sessions.size, 'dispose() alone').toBe(1);

    await store.close();
    await until('the connection to be closed', () => sessions.size === 0);
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectNodeMetrics, registry } from './metrics.js';

export interface MetricsServer {
  /** The address it listens on. */
  host: string;
  port: number;
  close(): Promise<void>;
}

/**
 * `GET /metrics` in Prometheus's text format, on a port of its own (METRICS_PORT): the public port
 * never exposes it, and a scrape never queues behind the API's requests or middleware.
 */
export async function startMetricsServer({ port, host = '127.0.0.1' }: { port: number; host?: string }): Promise<MetricsServer> {
  collectNodeMetrics();
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: the metrics are at GET /metrics\n');
      return;
    }
    registry
      .metrics()
      .then((text) => response.writeHead(200, { 'Content-Type': registry.contentType }).end(text))
      .catch((error: unknown) => response.writeHead(500, { 'Content-Type': 'text/plain' }).end(`metrics could not be collected: ${error instanceof Error ? error.message : String(error)}\n`));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const { address, port: bound } = server.address() as AddressInfo;
  return {
    host: address,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GatewayRequest {
  to: string;
  message: string;
  idempotencyKey: string | undefined;
  /** False when the key had been seen before: the gateway answered 200 and delivered nothing. */
  delivered: boolean;
}

export interface RecordingSmsGateway {
  url: string;
  apiKey: string;
  requests: GatewayRequest[];
  /** Messages that reached each phone. */
  deliveredTo(phone: string): GatewayRequest[];
  close(): Promise<void>;
}

/**
 * A real HTTP SMS gateway on a free local port, for `SMS_SENDER=http`. It records every request
 * and, like real gateways with idempotency keys, delivers a message once per `Idempotency-Key`
 * (a repeat is answered 200 and delivered nothing), so what each phone received is observed here.
 * `beforeAnswer` runs after a request is recorded and delivered and before it is answered: the
 * moment a sender's process can die with its text accepted but its job not yet marked done.
 */
export async function startRecordingSmsGateway(options: { answerDelayMs: number; beforeAnswer?: (request: GatewayRequest, index: number) => Promise<void> | void }): Promise<RecordingSmsGateway> {
  const apiKey = 'resilience-gateway-key';
  const requests: GatewayRequest[] = [];
  const seenKeys = new Set<string>();
  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    // Each request's answer runs on its own; the emitter does not look at the promise.
    incoming.on('end', () => void answer());
    const answer = async () => {
      if (incoming.headers.authorization !== `Bearer ${apiKey}`) {
        response.writeHead(401).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { to: string; message: string };
      const header = incoming.headers['idempotency-key'];
      const idempotencyKey = Array.isArray(header) ? header[0] : header;
      const delivered = idempotencyKey === undefined || !seenKeys.has(idempotencyKey);
      if (idempotencyKey !== undefined) seenKeys.add(idempotencyKey);
      const request: GatewayRequest = { to: body.to, message: body.message, idempotencyKey, delivered };
      requests.push(request);
      await new Promise((resolve) => setTimeout(resolve, options.answerDelayMs));
      await options.beforeAnswer?.(request, requests.length - 1);
      if (response.destroyed) return;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ status: delivered ? 'queued' : 'duplicate' }));
    };
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/messages`,
    apiKey,
    requests,
    deliveredTo: (phone) => requests.filter((request) => request.to === phone && request.delivered),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

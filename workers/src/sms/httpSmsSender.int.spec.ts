import { afterEach, describe, expect, it } from 'vitest';
import { answerJson, startLocalHttpServer, type LocalHttpServer } from '../testing/localHttpServer.js';
import { HttpSmsSender, SmsGatewayError } from './httpSmsSender.js';

describe('HttpSmsSender', () => {
  let gateway: LocalHttpServer | undefined;
  afterEach(async () => {
    await gateway?.close();
    gateway = undefined;
  });

  const senderFor = (url: string, timeoutMs?: number) => new HttpSmsSender({ gatewayUrl: `${url}/v1/messages`, apiKey: 'secret-key', senderName: 'HONEYLEND', ...(timeoutMs === undefined ? {} : { timeoutMs }) });

  it('POSTs the number, message and sender name as JSON with the bearer key', async () => {
    gateway = await startLocalHttpServer((_request, response) => answerJson(response, 202, { id: 'm-1' }));
    await senderFor(gateway.url).send({ to: '+639171234567', body: 'Hello from Honeylend' });

    expect(gateway.requests).toHaveLength(1);
    const [request] = gateway.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/v1/messages');
    expect(request?.headers.authorization).toBe('Bearer secret-key');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual({ to: '+639171234567', message: 'Hello from Honeylend', sender: 'HONEYLEND' });
  });

  it('fails with the status, and without the gateway’s body, when the gateway answers 500', async () => {
    gateway = await startLocalHttpServer((request, response) => answerJson(response, 500, { echo: request.body }));
    const sending = senderFor(gateway.url).send({ to: '+639171234567', body: 'code 424242' });
    await expect(sending).rejects.toBeInstanceOf(SmsGatewayError);
    await expect(sending).rejects.toMatchObject({ status: 500, message: 'SMS gateway answered 500' });
  });

  it('fails when the gateway does not answer in time', async () => {
    gateway = await startLocalHttpServer(() => {
      // never answers
    });
    await expect(senderFor(gateway.url, 100).send({ to: '+639171234567', body: 'x' })).rejects.toThrow('SMS gateway did not answer within 100 ms');
  });

  it('stops waiting when its caller cancels', async () => {
    gateway = await startLocalHttpServer(() => {
      // never answers
    });
    const cancel = new AbortController();
    const sending = senderFor(gateway.url).send({ to: '+639171234567', body: 'x' }, { signal: cancel.signal });
    cancel.abort();
    await expect(sending).rejects.toThrow('SMS send cancelled');
  });

  it('fails clearly when nothing listens at the gateway address', async () => {
    const closed = await startLocalHttpServer(() => undefined);
    await closed.close();
    await expect(senderFor(closed.url).send({ to: '+639171234567', body: 'x' })).rejects.toThrow(/SMS gateway unreachable: fetch failed \(.*ECONNREFUSED.*\)/);
  });
});

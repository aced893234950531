import { Agent, request } from 'node:http';

/**
 * An answer: its status and its body parsed as JSON (the text itself when it is not JSON, null when empty).
 * `T` is the body the caller reads once it has checked `status`, as the API states it; the client does not
 * check it (the bench measures the system, it does not test it). Callers that only report the body leave it
 * `unknown`.
 */
export interface JsonResponse<T = unknown> {
  status: number;
  body: T;
}

/** A small keep-alive JSON client (node:http, lighter than fetch when the load generator shares 2 cores with the system). */
export class JsonClient {
  private readonly agent: Agent;
  private readonly url: URL;

  constructor(baseUrl: string, maxSockets = 64) {
    this.url = new URL(baseUrl);
    if (this.url.hostname !== '127.0.0.1') throw new Error('the bench only talks to 127.0.0.1');
    this.agent = new Agent({ keepAlive: true, maxSockets });
  }

  call<T = unknown>(method: string, path: string, { token, body, timeoutMs = 10_000 }: { token?: string; body?: unknown; timeoutMs?: number } = {}): Promise<JsonResponse<T>> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = request(
        {
          agent: this.agent,
          host: '127.0.0.1',
          port: this.url.port,
          method,
          path,
          headers: {
            ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': payload.length } : {}),
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
          },
          timeout: timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : null;
            } catch {
              // not JSON: the caller reports the text
            }
            // The caller's word for the body's shape (see JsonResponse): not checked here.
            resolve({ status: res.statusCode ?? 0, body: parsed as T });
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out after ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

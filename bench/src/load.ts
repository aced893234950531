import autocannon from 'autocannon';

/** Load runs in progress, so an interrupt can end them at once instead of after their duration. */
const running = new Set<autocannon.Instance>();

export function stopAllLoads(): void {
  for (const instance of running) instance.stop();
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Responses counted, by status class, and errors/timeouts. */
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  durationSeconds: number;
}

export interface LoadOptions {
  /** One URL, or several: autocannon gives connection i to url i mod n (round robin over API processes). */
  url: string | string[];
  connections: number;
  durationSeconds: number;
  /** Builds each request (method, path, headers, body); called for every request sent. */
  next: () => { method: 'GET' | 'POST' | 'PUT'; path: string; headers?: Record<string, string>; body?: string };
  onResponse?: (status: number, body: string) => void;
  /** A request unanswered after this long counts as a timeout (default 10 s). */
  timeoutSeconds?: number;
}

/**
 * Closed-loop HTTP load with autocannon: `connections` keep-alive connections, each sending its next
 * request as soon as the previous one is answered, for `durationSeconds` (bounded in time and aimed
 * only at 127.0.0.1).
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const urls = typeof options.url === 'string' ? [options.url] : options.url;
  if (urls.length === 0 || urls.some((url) => new URL(url).hostname !== '127.0.0.1')) throw new Error('the bench only loads 127.0.0.1');
  let instance!: autocannon.Instance;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: (urls.length === 1 ? urls[0] : urls) as string,
        connections: options.connections,
        duration: options.durationSeconds,
        timeout: options.timeoutSeconds ?? 10,
        requests: [
          {
            setupRequest: (request: autocannon.Request) => {
              const next = options.next();
              return { ...request, method: next.method, path: next.path, headers: { ...request.headers, ...next.headers }, body: next.body };
            },
            ...(options.onResponse ? { onResponse: (status: number, body: string) => options.onResponse!(status, body) } : {}),
          },
        ],
      },
      // The error is an Error (autocannon's typings say `any`): the options it refused, as its validation names them.
      (error: Error | null, finished) => (error ? reject(error) : resolve(finished)),
    );
    running.add(instance);
  }).finally(() => running.delete(instance));
  return {
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: result.latency.average,
    },
    durationSeconds: result.duration,
  };
}

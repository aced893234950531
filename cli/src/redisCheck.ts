import { Redis } from 'ioredis';

/** Resolves when Redis answers PING within `timeoutMs`; otherwise rejects with a one-line reason. */
export async function checkRedis(url: string, timeoutMs = 2000): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } finally {
    redis.disconnect();
  }
}

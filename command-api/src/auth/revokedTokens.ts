import type { Redis } from 'ioredis';

/**
 * Tokens signed out before they expire. A token's id (jti) stays listed until the token would
 * have expired anyway, so the list never grows beyond the tokens still alive.
 */
export class RevokedTokens {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(tokenId: string): string {
    return `${this.prefix}auth:revoked:${tokenId}`;
  }

  async revoke(tokenId: string, expiresAtMs: number, now = Date.now()): Promise<void> {
    const ttl = Math.max(1, expiresAtMs - now);
    await this.redis.set(this.key(tokenId), '1', 'PX', ttl);
  }

  async has(tokenId: string): Promise<boolean> {
    return (await this.redis.exists(this.key(tokenId))) === 1;
  }
}

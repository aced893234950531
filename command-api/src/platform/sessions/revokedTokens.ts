import type { Redis } from 'ioredis';
import { pubSubChannel } from '@honeylend/contracts';

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

  /**
   * The pub/sub channel on which a revoked token's id is announced: every API node listens and
   * closes the sockets that token opened, wherever they are. It names the database the list is
   * kept in, as pub/sub reaches every database of the server.
   */
  get channel(): string {
    return pubSubChannel(this.prefix, this.redis.options.db ?? 0, 'auth:revoked-tokens');
  }

  /**
   * Listed first, announced second: a node that registers a socket after the announcement went by
   * finds the token listed when it checks again (RealtimeGateway re-checks after registration).
   */
  async revoke(tokenId: string, expiresAtMs: number, now = Date.now()): Promise<void> {
    const ttl = Math.max(1, expiresAtMs - now);
    await this.redis.set(this.key(tokenId), '1', 'PX', ttl);
    await this.redis.publish(this.channel, tokenId);
  }

  /**
   * The pub/sub channel on which an account whose every session ended is announced (its id and
   * why): every API node closes that account's sockets at once, without waiting for the change
   * feed, which stands still while the projections lag. Named by its database too, as above.
   */
  get accountsChannel(): string {
    return pubSubChannel(this.prefix, this.redis.options.db ?? 0, 'auth:revoked-accounts');
  }

  async endAccountSessions(accountId: string, reason: string): Promise<void> {
    await this.redis.publish(this.accountsChannel, JSON.stringify({ id: accountId, reason }));
  }

  async has(tokenId: string): Promise<boolean> {
    return (await this.redis.exists(this.key(tokenId))) === 1;
  }
}

import { createHmac, randomUUID } from 'node:crypto';

const ISSUER = 'honeylend';
const AUDIENCE = 'honeylend-api';

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A borrower token exactly as POST /api/auth/login issues it (HS256, iss, aud, sub, role, tv,
 * its own id in jti, 12 h). The bench sets JWT_SECRET itself, so it signs tokens for the members it seeded instead of
 * spending an argon2 verification per member; one real login per run checks the seeded hash.
 */
export function borrowerToken(secret: string, memberId: string, tokenVersion = 0): string {
  const now = Math.floor(Date.now() / 1000);
  const header = part({ alg: 'HS256', typ: 'JWT' });
  const payload = part({ role: 'borrower', tv: tokenVersion, iat: now, exp: now + 12 * 3600, aud: AUDIENCE, iss: ISSUER, sub: memberId, jti: randomUUID() });
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}

import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import { isPublishedSecret } from '@honeylend/contracts/server';
import type { RevokedTokens } from './revokedTokens.js';

export type Role = 'borrower' | 'admin' | 'superadmin' | 'auditor';

export interface TokenClaims {
  sub: string;
  role: Role;
  /** Token version: password reset, suspension and deletion bump it, so older tokens stop working. */
  tv: number;
}

const ISSUER = 'honeylend';
const AUDIENCE = 'honeylend-api';
const TOKEN_TTL = '12h';
/** Verified tokens remembered at most (the oldest goes first): about 3 MB. */
const VERIFIED_TOKENS_KEPT = 10_000;

const claimsSchema = z.object({
  sub: z.string().min(1),
  role: z.enum(['borrower', 'admin', 'superadmin', 'auditor']),
  tv: z.number().int().nonnegative(),
  exp: z.number().int().positive(),
  jti: z.string().min(1),
});

export interface VerifiedClaims extends TokenClaims {
  /** Seconds since the epoch after which the token no longer works. */
  exp: number;
  /** The token's own id, which signing out revokes. */
  jti: string;
}

export class TokenService {
  /** Tokens signed out early; without it (tools, tests of signing alone) none are. */
  revoked?: RevokedTokens;

  /**
   * The secret as a KeyObject, made once: given a string, jsonwebtoken first tries to parse it as a
   * PEM public key on every call (a thrown exception each time), which cost a third of the API's
   * CPU under read load.
   */
  private readonly key: KeyObject;

  constructor(secret: string) {
    if (secret.length < 16) throw new Error('JWT_SECRET must be at least 16 characters');
    if (isPublishedSecret(secret)) throw new Error('JWT_SECRET is a secret published with Honeylend: anyone could sign tokens with it');
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  sign(claims: TokenClaims): string {
    return jwt.sign({ role: claims.role, tv: claims.tv }, this.key, {
      algorithm: 'HS256',
      expiresIn: TOKEN_TTL,
      subject: claims.sub,
      jwtid: randomUUID(),
      issuer: ISSUER,
      audience: AUDIENCE,
    });
  }

  /**
   * Tokens already verified, by their exact text: a signed-in client sends the same token with every
   * request, and checking its signature and claims again cost a tenth of the API's CPU per read.
   * Only a valid token is kept, only until it expires; signing out and account changes are checked
   * on every request apart from this (revocation list, token version).
   */
  private readonly verified = new Map<string, Readonly<VerifiedClaims>>();

  /** Returns the claims of a valid token, or null for anything else (expired, forged, alg:none, wrong audience). */
  verify(token: string, nowMs = Date.now()): VerifiedClaims | null {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp * 1000 > nowMs) return known;
      this.verified.delete(token);
      return null;
    }
    try {
      const payload = jwt.verify(token, this.key, { algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE, clockTimestamp: Math.floor(nowMs / 1000) });
      const parsed = claimsSchema.safeParse(payload);
      if (!parsed.success) return null;
      const claims = Object.freeze(parsed.data);
      if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, claims);
      return claims;
    } catch {
      return null;
    }
  }
}

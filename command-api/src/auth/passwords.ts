import { Algorithm, hash, verify } from '@node-rs/argon2';

/** OWASP's argon2id floor (m = 19 MiB, t = 2, p = 1); raising these only costs login latency. */
export const ARGON2_OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** A real hash of a random string: verifying against it when no account exists keeps the answer time the same. */
const UNKNOWN_ACCOUNT_HASH = hash(crypto.randomUUID(), ARGON2_OPTIONS);

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash ?? (await UNKNOWN_ACCOUNT_HASH), password);
  } catch {
    return false;
  }
}

import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { WorkLane } from '../throttle/workLane.js';

/** OWASP's argon2id floor (m = 19 MiB, t = 2, p = 1); raising these only costs login latency. */
// Algorithm is an ambient const enum (not importable as a value under isolatedModules); 2 is Argon2id.
const ARGON2ID = 2 as Algorithm.Argon2id;
export const ARGON2_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * New passwords (registration, change, reset, a new admin) are hashed one at a time, at most 8
 * waiting (503 BUSY past that): a registration flood holds one core and one of libuv's threads,
 * never the machine, so the logins' checks keep theirs.
 */
export const NEW_PASSWORD_HASHING = new WorkLane(1, 8);

export function hashPassword(password: string): Promise<string> {
  return NEW_PASSWORD_HASHING.run(() => hash(password, ARGON2_OPTIONS));
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

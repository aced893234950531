import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** JWT_SECRET, or the file in DATA_DIR that holds the secret generated for a development server. */
export type JwtSecretSource = { secret: string } | { devSecretFile: string };

/** Where in DATA_DIR a development server keeps the JWT secret generated at its first start. */
export const DEV_JWT_SECRET_FILE = 'jwt-secret';

/** A password for the main admin when ADMIN_PASSWORD is not set: 120 random bits. */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}

/**
 * The secret in `path`, made on first use (256 random bits, readable by its owner only). Two
 * processes starting at once both end up with the one that reached the disk first.
 */
export function loadOrCreateSecretFile(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(path, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(path, 'utf8').trim();
}

/** The secret that signs tokens: JWT_SECRET, or the development secret file (made on first use). */
export function jwtSecretOf(config: { jwtSecret: JwtSecretSource }): string {
  return 'secret' in config.jwtSecret ? config.jwtSecret.secret : loadOrCreateSecretFile(config.jwtSecret.devSecretFile);
}

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jwtSecretOf } from './devSecrets.js';

const dir = mkdtempSync(join(tmpdir(), 'dev-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the development JWT secret', () => {
  it('is made at first use into its file, readable by its owner only, and read back ever after', () => {
    const devSecretFile = join(dir, 'data', 'jwt-secret');
    const first = jwtSecretOf({ jwtSecret: { devSecretFile } });
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(devSecretFile).mode & 0o777).toBe(0o600);
    expect(jwtSecretOf({ jwtSecret: { devSecretFile } })).toBe(first);
    expect(jwtSecretOf({ jwtSecret: { devSecretFile: join(dir, 'other', 'jwt-secret') } })).not.toBe(first);
  });

  it('is JWT_SECRET when that is set', () => {
    expect(jwtSecretOf({ jwtSecret: { secret: 'z'.repeat(40) } })).toBe('z'.repeat(40));
  });
});

import { describe, expect, it } from 'vitest';
import { TokenService } from './tokens.js';

describe('the token service', () => {
  it('neither signs nor verifies with a secret published with Honeylend', () => {
    expect(() => new TokenService('honeylend-development-secret-not-for-production')).toThrow(/published/);
    const tokens = new TokenService('a-secret-of-this-server-only-1234567890');
    expect(tokens.verify(tokens.sign({ sub: 'someone', role: 'borrower', tv: 0 }))).toMatchObject({ sub: 'someone', role: 'borrower', tv: 0 });
  });
});

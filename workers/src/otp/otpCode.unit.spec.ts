import { describe, expect, it } from 'vitest';
import { constantTimeEqual, hashOtpCode, resolveOtpSecret } from '@honeylend/contracts/server';
import { randomBytes } from 'node:crypto';
import { otpCodeFromSeed, otpMessage, redactCode } from './otpCode.js';

describe('OTP codes', () => {
  const secret = 'k'.repeat(32);

  it('are six digits, leading zeros kept', () => {
    const codes = Array.from({ length: 2_000 }, () => otpCodeFromSeed(secret, randomBytes(32).toString('hex'), 0));
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    // 2,000 draws from a million repeat rarely; many repeats would mean a broken generator.
    expect(new Set(codes).size).toBeGreaterThan(1_990);
  });

  it('are the same for a re-run of one send, and fresh for the next send or another secret', () => {
    const seed = randomBytes(32).toString('hex');
    expect(otpCodeFromSeed(secret, seed, 0)).toBe(otpCodeFromSeed(secret, seed, 0));
    const sends = Array.from({ length: 50 }, (_, sendNumber) => otpCodeFromSeed(secret, seed, sendNumber));
    expect(new Set(sends).size).toBeGreaterThan(45);
    expect(otpCodeFromSeed('o'.repeat(32), seed, 0)).not.toBe(otpCodeFromSeed(secret, seed, 0));
  });

  it('are texted with the expiry and a warning never to share them', () => {
    expect(otpMessage('004217', 5 * 60_000)).toBe('Your Honeylend withdrawal code is 004217. It expires in 5 minutes. Never share it.');
    expect(otpMessage('004217', 30_000)).toBe('Your Honeylend withdrawal code is 004217. It expires in 1 minute. Never share it.');
  });

  it('are blotted out of error texts', () => {
    expect(redactCode('gateway rejected "code is 004217."', '004217')).toBe('gateway rejected "code is ••••••."');
  });
});

describe('hashOtpCode', () => {
  const challengeId = '8d0c8f8e-3d5b-4d8a-9c1e-2f4b6a7c9e01';

  it('is the HMAC-SHA256 of challenge and code, as hex', () => {
    expect(hashOtpCode('k'.repeat(32), challengeId, '123456')).toBe(hashOtpCode('k'.repeat(32), challengeId, '123456'));
    expect(hashOtpCode('k'.repeat(32), challengeId, '123456')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('differs for another code, another challenge or another secret', () => {
    const base = hashOtpCode('k'.repeat(32), challengeId, '123456');
    expect(hashOtpCode('k'.repeat(32), challengeId, '123457')).not.toBe(base);
    expect(hashOtpCode('k'.repeat(32), '8d0c8f8e-3d5b-4d8a-9c1e-2f4b6a7c9e02', '123456')).not.toBe(base);
    expect(hashOtpCode('j'.repeat(32), challengeId, '123456')).not.toBe(base);
  });
});

describe('constantTimeEqual', () => {
  it('tells equal texts from different ones, of any length', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });
});

describe('resolveOtpSecret', () => {
  it('uses OTP_SECRET when it is long enough', () => {
    expect(resolveOtpSecret({ OTP_SECRET: 's'.repeat(32), NODE_ENV: 'production' })).toEqual({ secret: 's'.repeat(32), isDevelopmentDefault: false });
  });

  it('refuses a short OTP_SECRET', () => {
    expect(() => resolveOtpSecret({ OTP_SECRET: 'short' })).toThrow('OTP_SECRET must be at least 32 characters');
  });

  it('falls back to a development key outside production only', () => {
    expect(resolveOtpSecret({}).isDevelopmentDefault).toBe(true);
    expect(() => resolveOtpSecret({ NODE_ENV: 'production' })).toThrow('OTP_SECRET is required when NODE_ENV=production');
  });
});

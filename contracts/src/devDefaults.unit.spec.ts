import { describe, expect, it } from 'vitest';
import { devDefaultsAllowed, resolveOtpSecret } from './server.js';

describe('development defaults', () => {
  it('are allowed for development (also when NODE_ENV is unset) and test, and by ALLOW_DEV_DEFAULTS=1 outside production', () => {
    expect(devDefaultsAllowed({})).toBe(true);
    expect(devDefaultsAllowed({ NODE_ENV: 'development' })).toBe(true);
    expect(devDefaultsAllowed({ NODE_ENV: 'test' })).toBe(true);
    expect(devDefaultsAllowed({ NODE_ENV: 'staging', ALLOW_DEV_DEFAULTS: '1' })).toBe(true);
  });

  it('are refused for production and for anything else that is not exactly development or test', () => {
    for (const NODE_ENV of ['production', 'staging', 'prod', 'Development', 'bench']) expect(devDefaultsAllowed({ NODE_ENV })).toBe(false);
    expect(devDefaultsAllowed({ NODE_ENV: 'production', ALLOW_DEV_DEFAULTS: '1' })).toBe(false);
    expect(devDefaultsAllowed({ NODE_ENV: 'staging', ALLOW_DEV_DEFAULTS: 'true' })).toBe(false);
  });

  it('so the OTP secret must be set on a staging server', () => {
    expect(() => resolveOtpSecret({ NODE_ENV: 'staging' })).toThrow('OTP_SECRET is required when NODE_ENV=staging');
    expect(resolveOtpSecret({ NODE_ENV: 'test' }).isDevelopmentDefault).toBe(true);
  });
});

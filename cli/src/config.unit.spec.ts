import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('runs with development defaults, saying which ones', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, redisUrl: 'redis://127.0.0.1:6379', loanMonthlyRateBps: 250, isProduction: false });
    expect(config.eventStoreUrl).toMatch(/^pglite:.*data\/events$/);
    expect(config.uploadDir).toMatch(/data\/uploads$/);
    expect(config.warnings.join(' ')).toMatch(/JWT_SECRET/);
  });

  it('refuses to run in production without the secrets', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) })).toThrow(/ADMIN_USERNAME and ADMIN_PASSWORD/);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'short', ADMIN_USERNAME: 'a', ADMIN_PASSWORD: 'long-enough-1' })).toThrow(/32 characters/);
  });

  it('uses the development defaults only for development and test, or ALLOW_DEV_DEFAULTS=1 outside production', () => {
    for (const NODE_ENV of ['development', 'test', undefined]) expect(loadConfig({ NODE_ENV }).devDefaults).toBe(true);
    // A staging server, a typo, anything else: the same refusal production gives.
    for (const NODE_ENV of ['staging', 'prod', 'Production', 'bench']) {
      expect(() => loadConfig({ NODE_ENV })).toThrow(new RegExp(`JWT_SECRET is required when NODE_ENV=${NODE_ENV}`));
      expect(() => loadConfig({ NODE_ENV, JWT_SECRET: 'x'.repeat(40) })).toThrow(/ADMIN_USERNAME and ADMIN_PASSWORD/);
      expect(() => loadConfig({ NODE_ENV, JWT_SECRET: 'short-secret-x', ADMIN_USERNAME: 'a', ADMIN_PASSWORD: 'long-enough-1' })).toThrow(/32 characters/);
    }
    expect(loadConfig({ NODE_ENV: 'staging', ALLOW_DEV_DEFAULTS: '1' }).devDefaults).toBe(true);
    expect(() => loadConfig({ NODE_ENV: 'production', ALLOW_DEV_DEFAULTS: '1' })).toThrow(/JWT_SECRET is required/);
  });

  it('never runs on a published secret: an unset JWT_SECRET is a file of the data directory, an unset ADMIN_PASSWORD made anew', () => {
    const config = loadConfig({ DATA_DIR: '/srv/honeylend-data' });
    expect(config.jwtSecret).toEqual({ devSecretFile: '/srv/honeylend-data/jwt-secret' });
    expect(config.superadmin).toMatchObject({ username: 'admin', generated: true });
    expect(config.superadmin.password.length).toBeGreaterThanOrEqual(20);
    expect(loadConfig({}).superadmin.password).not.toBe(config.superadmin.password);
    expect(loadConfig({ ADMIN_PASSWORD: 'chosen-password-1' }).superadmin).toEqual({ username: 'admin', password: 'chosen-password-1', generated: false });
    expect(loadConfig({ JWT_SECRET: 'y'.repeat(40) }).jwtSecret).toEqual({ secret: 'y'.repeat(40) });
    for (const NODE_ENV of ['development', 'production']) {
      expect(() => loadConfig({ NODE_ENV, JWT_SECRET: 'honeylend-development-secret-not-for-production', ADMIN_USERNAME: 'a', ADMIN_PASSWORD: 'long-enough-1' })).toThrow(/published/);
    }
  });

  it('takes the loan rate as a percent per month and stores basis points', () => {
    expect(loadConfig({ LOAN_MONTHLY_RATE_PERCENT: '1.75' }).loanMonthlyRateBps).toBe(175);
    expect(() => loadConfig({ LOAN_MONTHLY_RATE_PERCENT: '-1' })).toThrow(/LOAN_MONTHLY_RATE_PERCENT/);
  });

  it('honours a db index in REDIS_URL and refuses what is not a Redis URL', () => {
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/3' }).redisUrl).toBe('redis://127.0.0.1:6379/3');
    expect(() => loadConfig({ REDIS_URL: 'http://nope' })).toThrow(/REDIS_URL/);
  });
});

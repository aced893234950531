import type { BucketLimit } from './leakyBuckets.js';

const HOUR_MS = 3_600_000;

/** A limit of `perHour` a steady hour, with ten minutes' worth (at least `minBurst`) allowed at once. */
export function hourlyLimit(perHour: number, minBurst: number): BucketLimit {
  return { capacity: Math.max(minBurst, Math.floor(perHour / 6)), leakMs: HOUR_MS / perHour };
}

/**
 * The limits on unauthenticated account requests. Per client address (an IPv6 client by its /64)
 * they are generous, as thousands may share one carrier NAT; per phone number they are tight, as
 * one number has one owner. REGISTRATIONS_PER_HOUR_PER_ADDRESS raises the first for a test
 * system that registers thousands of borrowers from 127.0.0.1.
 */
export interface AccountLimits {
  registrationPerAddress: BucketLimit;
  registrationPerPhone: BucketLimit;
  passwordResetPerAddress: BucketLimit;
  passwordResetPerPhone: BucketLimit;
}

export const DEFAULT_REGISTRATIONS_PER_HOUR_PER_ADDRESS = 120;

export function accountLimits(env: Readonly<Record<string, string | undefined>>): AccountLimits {
  const given = env.REGISTRATIONS_PER_HOUR_PER_ADDRESS;
  const perHour = given === undefined || given === '' ? DEFAULT_REGISTRATIONS_PER_HOUR_PER_ADDRESS : Number(given);
  if (!Number.isInteger(perHour) || perHour < 1) throw new Error(`REGISTRATIONS_PER_HOUR_PER_ADDRESS must be a whole number above 0, not "${given}"`);
  return {
    registrationPerAddress: hourlyLimit(perHour, 10),
    registrationPerPhone: { capacity: 5, leakMs: 12 * 60_000 },
    passwordResetPerAddress: hourlyLimit(Math.max(60, perHour), 10),
    passwordResetPerPhone: { capacity: 3, leakMs: 20 * 60_000 },
  };
}

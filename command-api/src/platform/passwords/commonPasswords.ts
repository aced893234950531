import { ApiError } from '../errors/apiError.js';

/** How many of the most used passwords are refused outright. */
export const COMMON_PASSWORDS_REFUSED = 1000;
export const TOO_COMMON = 'This password is too common';

let mostCommon: Promise<Set<string>> | null = null;

/**
 * The 1,000 most used passwords, from the frequency-ranked list zxcvbn-ts keeps (compiled from
 * real password leaks). Loaded on first use: the package decompresses a 49k-word dictionary.
 */
function mostCommonPasswords(): Promise<Set<string>> {
  mostCommon ??= import('@zxcvbn-ts/language-common').then(({ dictionary }) => new Set(dictionary['passwords-common'].slice(0, COMMON_PASSWORDS_REFUSED).map((word) => word.toLowerCase())));
  return mostCommon;
}

export async function isCommonPassword(password: string): Promise<boolean> {
  return (await mostCommonPasswords()).has(password.toLowerCase());
}

/** A password someone chooses (registration, reset, a new admin) must not be one attackers try first. */
export async function assertNotCommonPassword(password: string, field = 'password'): Promise<void> {
  if (await isCommonPassword(password)) throw new ApiError(400, 'VALIDATION_FAILED', TOO_COMMON, { fields: { [field]: TOO_COMMON } });
}

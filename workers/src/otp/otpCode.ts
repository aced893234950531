import { randomInt } from 'node:crypto';
import { OTP_CODE_LENGTH } from '@honeylend/contracts';

/** A uniformly random 6-digit code from the OS CSPRNG (leading zeros kept). */
export function generateOtpCode(): string {
  return randomInt(0, 10 ** OTP_CODE_LENGTH).toString().padStart(OTP_CODE_LENGTH, '0');
}

export function otpMessage(code: string, ttlMs: number): string {
  const minutes = Math.max(1, Math.ceil(ttlMs / 60_000));
  return `Your Honeylend withdrawal code is ${code}. It expires in ${minutes} minute${minutes === 1 ? '' : 's'}. Never share it.`;
}

/** Keeps a code out of an error text that a gateway or library may have built from the message. */
export function redactCode(text: string, code: string): string {
  return text.replaceAll(code, '•'.repeat(code.length));
}

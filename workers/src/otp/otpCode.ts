import { createHmac } from 'node:crypto';
import { OTP_CODE_LENGTH } from '@honeylend/contracts';

/**
 * The 6-digit code (leading zeros kept) of one send of an OTP job: HMAC-SHA256 under OTP_SECRET of
 * the job's random seed (32 bytes from the OS CSPRNG) and the send number, reduced to 6 digits
 * (64 bits mod 10^6: the bias is below 10^-13). A re-run of the same send rebuilds the same code,
 * so a worker that died after the gateway accepted the text never texts a second, different code;
 * see sms/smsDelivery.ts.
 */
export function otpCodeFromSeed(secret: string, seed: string, sendNumber: number): string {
  const digest = createHmac('sha256', secret).update(`otp-code:${seed}:${sendNumber}`).digest();
  return (digest.readBigUInt64BE(0) % BigInt(10 ** OTP_CODE_LENGTH)).toString().padStart(OTP_CODE_LENGTH, '0');
}

const expiresIn = (ttlMs: number) => {
  const minutes = Math.max(1, Math.ceil(ttlMs / 60_000));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};

/**
 * The withdrawal code's text names what it confirms — the amount and, masked, the account the money
 * goes to — so a member tricked into reading a code out learns what it would be used for.
 */
export function otpMessage(code: string, ttlMs: number, confirms?: { amount: string; destination?: string | undefined }): string {
  if (!confirms) return `Your Honeylend withdrawal code is ${code}. It expires in ${expiresIn(ttlMs)}. Never share it.`;
  const what = confirms.destination ? `${confirms.amount} to ${confirms.destination}` : confirms.amount;
  return `Your Honeylend withdrawal code is ${code}. It confirms ${what} and expires in ${expiresIn(ttlMs)}. Never share it.`;
}

/** The bank-change code's text names the new account (masked), so the member sees what they are agreeing to. */
export function bankChangeCodeMessage(code: string, ttlMs: number, destination: string): string {
  return `Your Honeylend bank change code is ${code}. It sets your bank account to ${destination} and expires in ${expiresIn(ttlMs)}. If you did not ask for this, do not share it and call us.`;
}

/** Keeps a code out of an error text that a gateway or library may have built from the message. */
export function redactCode(text: string, code: string): string {
  return text.replaceAll(code, '•'.repeat(code.length));
}

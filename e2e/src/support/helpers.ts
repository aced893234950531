import type { Locator, Page } from 'playwright-core';
import type { RunningSystem } from './system.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it answers something other than undefined, or fails with `what`. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the last thrown value is shown in its own string form, whatever it is
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
    await sleep(50);
  }
}

/** Waits until the locator's text matches, and answers the text. */
export async function textOf(locator: Locator, expected: RegExp | string, timeoutMs = 5_000): Promise<string> {
  return eventually(
    `${String(locator)} to read ${String(expected)}`,
    async () => {
      const text = (await locator.textContent({ timeout: timeoutMs })) ?? '';
      const matches = typeof expected === 'string' ? text.includes(expected) : expected.test(text);
      return matches ? text : undefined;
    },
    timeoutMs,
  );
}

/** The borrower's token, as the app stored it (spec §4: localStorage 'token'). */
export async function storedToken(page: Page): Promise<string | null> {
  return await page.evaluate<string | null>("window.localStorage.getItem('token')");
}

/** The newest code of `kind` texted to the signed-in borrower, read from the development SMS outbox. */
export async function latestOtp(system: RunningSystem, token: string, notBefore?: string, kind: 'withdrawal' | 'bank change' | 'phone confirmation' = 'withdrawal'): Promise<string> {
  // Only a text carrying that kind of code counts: a loan notice (its loan number has six digits too) or another code arriving about then is not it.
  const pattern = new RegExp(`${kind} code is (\\d{6})\\b`);
  return eventually(`a ${kind} code in the dev outbox`, async () => {
    const outbox = await system.request('GET', '/api/dev/outbox', { token });
    if (outbox.status !== 200) throw new Error(`GET /api/dev/outbox answered ${outbox.status} ${JSON.stringify(outbox.body)}`);
    const codes = (outbox.body as { body: string; createdAt: string }[]).filter((message) => !notBefore || message.createdAt >= notBefore).map((message) => pattern.exec(message.body)?.[1]);
    return codes.find((code) => code !== undefined);
  });
}

/** A Philippine mobile number no other run uses. */
export function uniquePhone(): string {
  const digits = `${Date.now() % 1_000_000_000}${Math.floor(Math.random() * 10)}`.slice(-9).padStart(9, '0');
  return `09${digits}`;
}

/** +639171234567 → the masked form the OTP dialog shows: +63•••••4567 */
export function maskedPhone(e164: string): string {
  return `+63•••••${e164.slice(-4)}`;
}

export function e164(localPhone: string): string {
  return `+63${localPhone.slice(1)}`;
}

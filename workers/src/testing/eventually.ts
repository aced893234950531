/**
 * Polls `probe` until it returns a value other than undefined, failing with `description` at
 * the deadline: waits exactly as long as the system under test needs, never a fixed sleep.
 */
export async function eventually<T>(description: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

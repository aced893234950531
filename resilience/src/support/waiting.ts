export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `probe` until it answers something other than undefined, and answers that. A probe that
 * throws ends the wait at once (e.g. a process died); `what` names the condition in the timeout error.
 */
export async function eventually<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await probe();
    if (answer !== undefined) return answer;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

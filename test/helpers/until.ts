/**
 * Polls `probe` until it gives something other than `undefined` or `false` (waiting on a
 * condition, never a fixed sleep) and returns it; fails naming `what` after `timeoutMs`. An
 * error thrown by the probe fails at once (tests that poll a process while it restarts catch
 * their own: test/topology/topology.ts).
 */
export async function until<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 15_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

// Waiting in tests with a deadline: for a condition (instead of for a fixed time), or for a promise
// that must settle (a hang becomes a failure instead of a stuck test). Shared by the unit tests (mocha
// under plain Node) and the integration tests (bundled by esbuild into the extension host), so it
// imports nothing but Node.

/** The values `until` treats as "not yet": everything JavaScript counts as false. */
type Falsy = false | 0 | '' | null | undefined;

/**
 * Calls `probe` every `intervalMs` ms (awaiting it when it returns a promise, so calls never
 * overlap) until it returns a truthy value, and resolves with that value.
 * Rejects with `timed out after <timeoutMs> ms waiting for <what>` once `timeoutMs` ms have passed
 * and the probe still says "not yet" (the probe is called once more at the deadline); an error
 * the probe throws is passed on at once.
 */
export async function until<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 10_000, intervalMs = 50): Promise<Exclude<T, Falsy>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Exclude<T, Falsy>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Resolves or rejects as `promise` does, but rejects with `<what> did not settle within <ms> ms`
 * if it has not settled after `ms` ms (the promise itself is left running). The timer is cleared
 * either way.
 */
export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves after `ms` ms. Only for a test that asserts something does NOT happen within that
 * time (say so where it is called); to wait for something, use {@link until}.
 */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
